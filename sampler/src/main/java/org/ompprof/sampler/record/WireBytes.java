package org.ompprof.sampler.record;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One record's bytes for the decoder, little-endian reads bounded by the record. A run of records in a heap array (a
 * recording's section) is read from the array through byte-array views: a field read through a {@link MemorySegment}
 * accessor costs about six times as much where only C1 compiles (ompprof record runs so, to leave the cores to the
 * program), one through a {@link ByteBuffer} about five times, and a build decodes millions. A run elsewhere is read
 * through a buffer view of it; a single record (the drainer checks each in its ring) through its segment: a view made
 * per record would cost more than it saves.
 */
final class WireBytes {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);

    private final MemorySegment memory;
    /** The heap array the run lies in ({@link #base} is then an index into it), or null. */
    private final byte[] array;

    private final ByteBuffer buffer;
    private final int base;
    private final int size;

    private WireBytes(MemorySegment memory, byte[] array, ByteBuffer buffer, int base, int size) {
        this.memory = memory;
        this.array = array;
        this.buffer = buffer;
        this.base = base;
        this.size = size;
    }

    /** A run of records in {@code memory}, to {@link #record} from, read from its array or through a buffer view. */
    static WireBytes ofRun(MemorySegment memory) {
        if (memory.byteSize() > Integer.MAX_VALUE) throw new MalformedRecordException("records of more than 2 GB");
        int size = (int) memory.byteSize();
        // a heap segment's address is its offset in its array
        if (memory.heapBase().orElse(null) instanceof byte[] a)
            return new WireBytes(memory, a, null, (int) memory.address(), size);
        return new WireBytes(memory, null, memory.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN), 0, size);
    }

    /** One record, read through its segment. */
    static WireBytes ofRecord(MemorySegment record) {
        if (record.byteSize() > Integer.MAX_VALUE) throw new MalformedRecordException("a record of more than 2 GB");
        return new WireBytes(record, null, null, 0, (int) record.byteSize());
    }

    /** The {@code size} bytes at {@code off} of these, as a record (the caller has checked that they are present). */
    WireBytes record(long off, long size) {
        return new WireBytes(memory, array, buffer, at(off, size), (int) size);
    }

    long size() {
        return size;
    }

    long u64(long off) {
        if (array != null) return (long) LONG.get(array, at(off, Long.BYTES));
        return buffer != null ? buffer.getLong(at(off, Long.BYTES)) : Le.u64(memory, at(off, Long.BYTES));
    }

    int u32(long off) {
        if (array != null) return (int) INT.get(array, at(off, Integer.BYTES));
        return buffer != null ? buffer.getInt(at(off, Integer.BYTES)) : Le.u32(memory, at(off, Integer.BYTES));
    }

    int u16(long off) {
        if (array != null) return Short.toUnsignedInt((short) SHORT.get(array, at(off, Short.BYTES)));
        return buffer != null
                ? Short.toUnsignedInt(buffer.getShort(at(off, Short.BYTES)))
                : Le.u16(memory, at(off, Short.BYTES));
    }

    int u8(long off) {
        if (array != null) return Byte.toUnsignedInt(array[at(off, 1)]);
        return Byte.toUnsignedInt(
                buffer != null ? buffer.get(at(off, 1)) : memory.get(ValueLayout.JAVA_BYTE, at(off, 1)));
    }

    /** A copy of {@code len} bytes at {@code off}. */
    byte[] bytes(long off, long len) {
        byte[] out = new byte[Math.toIntExact(len)];
        if (array != null) System.arraycopy(array, at(off, len), out, 0, out.length);
        else if (buffer != null) buffer.get(at(off, len), out);
        else MemorySegment.copy(memory, ValueLayout.JAVA_BYTE, at(off, len), out, 0, out.length);
        return out;
    }

    /** The {@code len} bytes at {@code off} as a slice of the memory they lie in (no copy). */
    MemorySegment slice(long off, long len) {
        return memory.asSlice(at(off, len) - origin(), len);
    }

    /** The record's own bytes as a segment, for the few readers written against segments. */
    MemorySegment segment() {
        return memory.asSlice(base - origin(), size);
    }

    /** Where {@link #memory} starts among the indices {@link #at} gives: its offset in its array, or 0. */
    private long origin() {
        return array != null ? memory.address() : 0;
    }

    /** The array or buffer index of the {@code len} bytes at {@code off}, which must lie within the record. */
    private int at(long off, long len) {
        if (off < 0 || len < 0 || off > size - len)
            throw new IndexOutOfBoundsException(len + " bytes at " + off + " of a " + size + "-byte record");
        return base + (int) off;
    }
}
