package org.ompprof.sampler.recording;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Builds a small section payload: little-endian integers and length-prefixed strings. */
final class PayloadWriter {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    PayloadWriter u8(int v) {
        out.write(v);
        return this;
    }

    PayloadWriter u32(int v) {
        for (int i = 0; i < 4; i++) out.write(v >>> (8 * i));
        return this;
    }

    PayloadWriter u64(long v) {
        for (int i = 0; i < 8; i++) out.write((int) (v >>> (8 * i)));
        return this;
    }

    PayloadWriter bytes(byte[] b) {
        u32(b.length);
        out.writeBytes(b);
        return this;
    }

    PayloadWriter string(String s) {
        return bytes(s.getBytes(StandardCharsets.UTF_8));
    }

    byte[] toByteArray() {
        return out.toByteArray();
    }
}
