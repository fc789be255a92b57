package org.ompprof.unwinder.cfi;

import java.io.ByteArrayOutputStream;

/** Little-endian bytes for hand-made CFI in tests. */
public final class ByteSink {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    public int size() {
        return out.size();
    }

    public ByteSink u8(int... values) {
        for (int v : values) out.write(v);
        return this;
    }

    public ByteSink u16(int v) {
        return u8(v & 0xff, (v >>> 8) & 0xff);
    }

    public ByteSink u32(long v) {
        for (int i = 0; i < 4; i++) out.write((int) (v >>> (8 * i)));
        return this;
    }

    public ByteSink u64(long v) {
        for (int i = 0; i < 8; i++) out.write((int) (v >>> (8 * i)));
        return this;
    }

    public ByteSink uleb(long v) {
        do {
            int b = (int) (v & 0x7f);
            v >>>= 7;
            out.write(v != 0 ? b | 0x80 : b);
        } while (v != 0);
        return this;
    }

    public ByteSink sleb(long v) {
        while (true) {
            int b = (int) (v & 0x7f);
            v >>= 7;
            boolean done = (v == 0 && (b & 0x40) == 0) || (v == -1 && (b & 0x40) != 0);
            out.write(done ? b : b | 0x80);
            if (done) return this;
        }
    }

    public ByteSink bytes(byte[] b) {
        out.writeBytes(b);
        return this;
    }

    public ByteSink string(String s) {
        out.writeBytes(s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        out.write(0);
        return this;
    }

    public byte[] toBytes() {
        return out.toByteArray();
    }

    public static byte[] of(int... values) {
        return new ByteSink().u8(values).toBytes();
    }
}
