package org.ompprof.unwinder.cfi;

/**
 * Call-frame information that cannot be read: says what is wrong and at which byte offset of
 * which section, so a report about a damaged module can point at the bytes.
 */
public final class CfiFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final long offset;

    public CfiFormatException(String what, long offset) {
        super(what + " at offset 0x" + Long.toHexString(offset));
        this.offset = offset;
    }

    public long offset() {
        return offset;
    }
}
