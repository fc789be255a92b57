package org.ompprof.unwinder.elf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** Bounds-checked little-endian reads over an immutable image; every miss names its offset. */
final class Bytes {
    private final ByteBuffer buf;

    Bytes(byte[] image) {
        this.buf = ByteBuffer.wrap(image)
                .order(ByteOrder.LITTLE_ENDIAN)
                .asReadOnlyBuffer()
                .order(ByteOrder.LITTLE_ENDIAN);
    }

    long size() {
        return buf.capacity();
    }

    void require(long offset, long length, String what) {
        if (offset < 0 || length < 0 || offset > size() || length > size() - offset) {
            throw new ElfFormatException(
                    what + " (" + length + " bytes) runs past the end of the file (" + size() + " bytes)", offset);
        }
    }

    int u8(long off) {
        require(off, 1, "byte");
        return buf.get((int) off) & 0xff;
    }

    int u16(long off) {
        require(off, 2, "u16");
        return buf.getShort((int) off) & 0xffff;
    }

    long u32(long off) {
        require(off, 4, "u32");
        return buf.getInt((int) off) & 0xffffffffL;
    }

    long u64(long off) {
        require(off, 8, "u64");
        return buf.getLong((int) off);
    }

    byte[] slice(long off, long length, String what) {
        require(off, length, what);
        byte[] out = new byte[(int) length];
        buf.get((int) off, out);
        return out;
    }

    /** Whether the NUL-terminated string at {@code off}, ending before {@code limit}, is {@code want}. */
    boolean cStringEquals(long off, long limit, byte[] want) {
        long end = Math.min(limit, size());
        if (off < 0 || off + want.length >= end) return false;
        for (int i = 0; i < want.length; i++) if (buf.get((int) (off + i)) != want[i]) return false;
        return buf.get((int) (off + want.length)) == 0;
    }

    /** A NUL-terminated string starting at {@code off}, not reading past {@code limit}. */
    String cString(long off, long limit) {
        long end = Math.min(limit, size());
        if (off < 0 || off >= end) throw new ElfFormatException("string outside its table", off);
        long i = off;
        while (i < end && buf.get((int) i) != 0) i++;
        if (i == end) throw new ElfFormatException("unterminated string", off);
        byte[] s = new byte[(int) (i - off)];
        buf.get((int) off, s);
        return new String(s, StandardCharsets.UTF_8);
    }
}
