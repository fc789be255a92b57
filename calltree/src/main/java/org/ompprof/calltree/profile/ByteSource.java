package org.ompprof.calltree.profile;

import java.nio.charset.StandardCharsets;
import org.ompprof.sampler.recording.BadSectionException;

/**
 * Reads what {@link ByteSink} wrote, trusting nothing: every read is bounded by the bytes
 * present, every count is checked against what is left before anything is allocated, and every
 * failure is a {@link BadSectionException} at the offending byte.
 */
public final class ByteSource {
    private final byte[] b;
    private int pos;

    public ByteSource(byte[] b) {
        this.b = b;
    }

    public int position() {
        return pos;
    }

    public boolean atEnd() {
        return pos == b.length;
    }

    public int u8() {
        if (pos >= b.length) throw fail("unexpected end of section");
        return b[pos++] & 0xFF;
    }

    public long varint() {
        int start = pos;
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos >= b.length) throw new BadSectionException(start, "unexpected end of section in a number");
            int x = b[pos++];
            v |= (long) (x & 0x7F) << shift;
            if (x >= 0) return v;
        }
        throw new BadSectionException(start, "number longer than 10 bytes");
    }

    public long zigzag() {
        long v = varint();
        return (v >>> 1) ^ -(v & 1);
    }

    /** A varint in [0, limit]. */
    public int bounded(long limit, String what) {
        int start = pos;
        long v = varint();
        if (v < 0 || v > limit)
            throw new BadSectionException(start, what + " " + Long.toUnsignedString(v) + " outside 0.." + limit);
        return (int) v;
    }

    /** A count of items each taking at least {@code minBytes} bytes. */
    public int count(int minBytes, String what) {
        int start = pos;
        long v = varint();
        if (v < 0
                || v > (b.length - pos) / Math.max(1, minBytes)) { // no multiplication: a huge count must not overflow
            throw new BadSectionException(
                    start,
                    Long.toUnsignedString(v) + " " + what + " cannot fit in the " + (b.length - pos) + " bytes left");
        }
        return (int) v;
    }

    public String string() {
        int length = count(1, "string bytes");
        String s = new String(b, pos, length, StandardCharsets.UTF_8);
        pos += length;
        return s;
    }

    public void end(String what) {
        if (!atEnd()) throw fail((b.length - pos) + " unexpected bytes after the " + what);
    }

    public BadSectionException fail(String message) {
        return new BadSectionException(pos, message);
    }
}
