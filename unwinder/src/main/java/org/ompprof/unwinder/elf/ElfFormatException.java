package org.ompprof.unwinder.elf;

/** An ELF file that cannot be read as such: says what is wrong and at which byte offset. */
public final class ElfFormatException extends RuntimeException {
    private final long offset;

    public ElfFormatException(String what, long offset) {
        super(what + " at offset " + offset);
        this.offset = offset;
    }

    public long offset() {
        return offset;
    }
}
