package org.ompprof.calltree.profile;

/**
 * A profile section whose bytes do not decode. {@link #offset()} is the byte within the
 * section's payload where decoding failed, so the file reader can name the file offset.
 */
public final class ProfileFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final long offset;

    public ProfileFormatException(long offset, String message) {
        super(message);
        this.offset = offset;
    }

    /** Byte within the section payload. */
    public long offset() {
        return offset;
    }
}
