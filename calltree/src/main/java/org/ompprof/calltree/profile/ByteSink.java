package org.ompprof.calltree.profile;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable byte array written with LEB128 varints: what the profile sections are made of. */
public final class ByteSink {
    private byte[] b = new byte[1 << 12];
    private int n;

    public void u8(int v) {
        ensure(1);
        b[n++] = (byte) v;
    }

    public void varint(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            b[n++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        b[n++] = (byte) v;
    }

    /** Signed values, small in magnitude either way, in few bytes. */
    public void zigzag(long v) {
        varint((v << 1) ^ (v >> 63));
    }

    public void string(String s) {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        varint(utf8.length);
        ensure(utf8.length);
        System.arraycopy(utf8, 0, b, n, utf8.length);
        n += utf8.length;
    }

    public void append(ByteSink other) {
        ensure(other.n);
        System.arraycopy(other.b, 0, b, n, other.n);
        n += other.n;
    }

    public int size() {
        return n;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(b, n);
    }

    private void ensure(int more) {
        if (n + more > b.length) b = Arrays.copyOf(b, Math.max(n + more, b.length * 2));
    }
}
