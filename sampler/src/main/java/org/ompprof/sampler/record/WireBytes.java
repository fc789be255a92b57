package org.ompprof.sampler.record;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One record's bytes for the decoder: little-endian reads through a {@link ByteBuffer} view of
 * the memory the record lies in, bounded by the record. A record read through a {@link
 * MemorySegment} accessor costs about six times as much where only C1 compiles (ompprof record
 * runs so, to leave the cores to the program), and a recording's build decodes millions.
 */
final class WireBytes {
    private final MemorySegment memory;
    private final ByteBuffer buffer;
    private final int base;
    private final int size;

    private WireBytes(MemorySegment memory, ByteBuffer buffer, int base, int size) {
        this.memory = memory;
        this.buffer = buffer;
        this.base = base;
        this.size = size;
    }

    /** All of {@code memory} (a record, or a run of records to {@link #record} from). */
    static WireBytes of(MemorySegment memory) {
        if (memory.byteSize() > Integer.MAX_VALUE) throw new MalformedRecordException("records of more than 2 GB");
        return new WireBytes(memory, memory.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN), 0, (int) memory.byteSize());
    }

    /** The {@code size} bytes at {@code off} of these, as a record (the caller has checked that they are present). */
    WireBytes record(long off, long size) {
        return new WireBytes(memory, buffer, at(off, size), (int) size);
    }

    long size() {
        return size;
    }

    long u64(long off) {
        return buffer.getLong(at(off, Long.BYTES));
    }

    int u32(long off) {
        return buffer.getInt(at(off, Integer.BYTES));
    }

    int u16(long off) {
        return Short.toUnsignedInt(buffer.getShort(at(off, Short.BYTES)));
    }

    int u8(long off) {
        return Byte.toUnsignedInt(buffer.get(at(off, 1)));
    }

    /** A copy of {@code len} bytes at {@code off}. */
    byte[] bytes(long off, long len) {
        byte[] out = new byte[Math.toIntExact(len)];
        buffer.get(at(off, len), out);
        return out;
    }

    /** The {@code len} bytes at {@code off} as a slice of the memory they lie in (no copy). */
    MemorySegment slice(long off, long len) {
        return memory.asSlice(at(off, len), len);
    }

    /** The record's own bytes as a segment, for the few readers written against segments. */
    MemorySegment segment() {
        return memory.asSlice(base, size);
    }

    /** The buffer index of the {@code len} bytes at {@code off}, which must lie within the record. */
    private int at(long off, long len) {
        if (off < 0 || len < 0 || off > size - len)
            throw new IndexOutOfBoundsException(len + " bytes at " + off + " of a " + size + "-byte record");
        return base + (int) off;
    }
}
