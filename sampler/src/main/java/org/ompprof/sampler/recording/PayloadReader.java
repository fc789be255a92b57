package org.ompprof.sampler.recording;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads what {@link PayloadWriter} wrote. Every read is bounded by the bytes present, and
 * counts are checked against the bytes left before anything is allocated for them.
 */
final class PayloadReader {
    /** A payload that does not parse; the recording reader adds the file and offset. */
    static final class BadPayload extends Exception {
        private static final long serialVersionUID = 1L;

        BadPayload(String message) {
            super(message, null, false, false);
        }
    }

    private final byte[] b;
    private int pos;

    PayloadReader(byte[] b) {
        this.b = b;
    }

    int position() {
        return pos;
    }

    int remaining() {
        return b.length - pos;
    }

    boolean atEnd() {
        return pos == b.length;
    }

    private void need(long n, String what) throws BadPayload {
        if (n < 0 || n > remaining())
            throw new BadPayload(what + " needs " + n + " bytes at byte " + pos + ", " + remaining() + " left");
    }

    int u8() throws BadPayload {
        need(1, "u8");
        return b[pos++] & 0xff;
    }

    int u32() throws BadPayload {
        need(4, "u32");
        int v = 0;
        for (int i = 0; i < 4; i++) v |= (b[pos++] & 0xff) << (8 * i);
        return v;
    }

    long u64() throws BadPayload {
        need(8, "u64");
        long v = 0;
        for (int i = 0; i < 8; i++) v |= (b[pos++] & 0xffL) << (8 * i);
        return v;
    }

    /** A count of items each at least {@code minItemBytes} long; checked against the bytes left. */
    int count(int minItemBytes, String what) throws BadPayload {
        long n = Integer.toUnsignedLong(u32());
        if (n * Math.max(1, minItemBytes) > remaining())
            throw new BadPayload(n + " " + what + " cannot fit in " + remaining() + " bytes");
        return (int) n;
    }

    byte[] bytes() throws BadPayload {
        long n = Integer.toUnsignedLong(u32());
        need(n, "byte string");
        byte[] out = Arrays.copyOfRange(b, pos, pos + (int) n);
        pos += (int) n;
        return out;
    }

    String string() throws BadPayload {
        return new String(bytes(), StandardCharsets.UTF_8);
    }

    void end(String what) throws BadPayload {
        if (!atEnd()) throw new BadPayload(remaining() + " unexpected bytes after the " + what);
    }
}
