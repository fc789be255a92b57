package org.ompprof.unwinder.cfi;

/**
 * A bounds-checked little-endian read position inside {@code [start, limit)} of a byte array.
 * Every read past the limit throws {@link CfiFormatException}, so a damaged length field can
 * never make a parser wander into a neighbouring entry or off the array.
 */
final class DwarfCursor {
    private static final int MAX_LEB_BYTES = 10;

    private final byte[] data;
    private final String section;
    private final int limit;
    private int pos;

    DwarfCursor(byte[] data, String section, int start, int limit) {
        if (start < 0 || limit > data.length || start > limit) {
            throw new CfiFormatException(
                    section + ": range [" + start + ", " + limit + ") outside " + data.length + " bytes",
                    Math.max(0, start));
        }
        this.data = data;
        this.section = section;
        this.pos = start;
        this.limit = limit;
    }

    int position() {
        return pos;
    }

    int limit() {
        return limit;
    }

    boolean atEnd() {
        return pos >= limit;
    }

    void seek(int to) {
        if (to < 0 || to > limit) throw error("jump to " + to + " outside the entry", pos);
        pos = to;
    }

    void skip(long n) {
        if (n < 0 || n > limit - pos) throw error("skipping " + n + " bytes runs past the end", pos);
        pos += (int) n;
    }

    private void need(int n) {
        if (n > limit - pos) throw error(n + "-byte field runs past the end", pos);
    }

    int u8() {
        need(1);
        return data[pos++] & 0xff;
    }

    int u16() {
        need(2);
        int v = (data[pos] & 0xff) | (data[pos + 1] & 0xff) << 8;
        pos += 2;
        return v;
    }

    long u32() {
        need(4);
        long v = (data[pos] & 0xffL)
                | (data[pos + 1] & 0xffL) << 8
                | (data[pos + 2] & 0xffL) << 16
                | (data[pos + 3] & 0xffL) << 24;
        pos += 4;
        return v;
    }

    long u64() {
        long lo = u32();
        return lo | u32() << 32;
    }

    /** An unsigned value of {@code size} bytes (1, 2, 4 or 8). */
    long unsigned(int size) {
        return switch (size) {
            case 1 -> u8();
            case 2 -> u16();
            case 4 -> u32();
            case 8 -> u64();
            default -> throw error("unsupported field size " + size, pos);
        };
    }

    long uleb() {
        return leb(false);
    }

    long sleb() {
        return leb(true);
    }

    private long leb(boolean signed) {
        long result = 0;
        int shift = 0;
        int start = pos;
        for (int i = 0; i < MAX_LEB_BYTES; i++) {
            int b = u8();
            if (shift < 64) result |= (long) (b & 0x7f) << shift;
            shift += 7;
            if ((b & 0x80) == 0) {
                if (signed && shift < 64 && (b & 0x40) != 0) result |= -1L << shift;
                return result;
            }
        }
        throw error("LEB128 longer than " + MAX_LEB_BYTES + " bytes", start);
    }

    /** A NUL-terminated ASCII string (augmentation strings are short). */
    String cString() {
        int start = pos;
        while (pos < limit && data[pos] != 0) pos++;
        if (pos >= limit) throw error("unterminated string", start);
        String s = new String(data, start, pos - start, java.nio.charset.StandardCharsets.ISO_8859_1);
        pos++;
        return s;
    }

    /** A copy of the next {@code n} bytes, for expression blocks kept beyond the parse. */
    byte[] bytes(long n) {
        if (n < 0 || n > limit - pos) throw error("block of " + n + " bytes runs past the end", pos);
        byte[] out = java.util.Arrays.copyOfRange(data, pos, pos + (int) n);
        pos += (int) n;
        return out;
    }

    CfiFormatException error(String what, int at) {
        return new CfiFormatException(section + ": " + what, at);
    }
}
