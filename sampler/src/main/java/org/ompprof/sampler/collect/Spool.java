package org.ompprof.sampler.collect;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.eclipse.collections.api.list.primitive.MutableLongList;
import org.eclipse.collections.api.map.primitive.MutableLongObjectMap;
import org.eclipse.collections.impl.list.mutable.primitive.LongArrayList;
import org.eclipse.collections.impl.map.mutable.primitive.LongObjectHashMap;
import org.ompprof.sampler.record.Le;

/**
 * Append-only temporary file for everything drained while the program runs, so that memory
 * stays flat however long it runs. Records are appended whole, per stream (one thread's sample
 * or event ring), gathered per stream into blocks of up to {@link #BLOCK} bytes that are deflated
 * (fast level) as they fill: stack snapshots shrink severalfold, so an hour of sampling takes
 * gigabytes of disk rather than tens of them. An index of blocks per stream lets the recording
 * be written thread by thread afterwards, reading one block at a time.
 */
public final class Spool implements AutoCloseable {
    /** Raw bytes per block: what one stream holds in memory before it is deflated and written. */
    static final int BLOCK = 128 << 10;

    private static final int BUFFER = 1 << 20;
    private static final int COMPRESSION = 1;

    /** A stretch of the spool file. */
    public record Span(long offset, long length) {}

    /** One stream's records not yet deflated. */
    private static final class Pending {
        byte[] raw = new byte[4096];
        int length;
    }

    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER);
    private final MemorySegment bufferSegment = MemorySegment.ofBuffer(buffer);
    /** Per stream: its blocks' file offsets, stored (deflated) lengths and raw lengths, in threes. */
    private final MutableLongObjectMap<MutableLongList> index = new LongObjectHashMap<>();

    private final MutableLongObjectMap<Pending> pending = new LongObjectHashMap<>();
    private final Deflater deflater = new Deflater(COMPRESSION);
    private byte[] packed = new byte[BLOCK + (BLOCK >> 4) + 64];
    /** Bytes appended, buffered ones included: the file offset of the next append. */
    private long size;
    /** Bytes in the file. */
    private long written;
    /** Records' bytes before deflating. */
    private long recordBytes;
    /** False for the warm-up's spool, whose writes are no part of the run's figures. */
    private boolean reporting = true;

    private Spool(Path path, FileChannel channel) {
        this.path = path;
        this.channel = channel;
    }

    /** A new spool file in {@code dir} (next to the output), readable only by us and already unlinked. */
    public static Spool create(Path dir, String namePrefix) throws IOException {
        Path path = Files.createTempFile(
                dir,
                namePrefix,
                ".spool",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
            // unlinked at once, the channel keeps it: a JVM killed mid-run leaves no spool behind
            Files.delete(path);
            return new Spool(path, channel);
        } catch (IOException e) {
            Files.deleteIfExists(path);
            throw e;
        }
    }

    /** Commits no JFR events (for the warm-up). */
    void quiet() {
        reporting = false;
    }

    public Path path() {
        return path;
    }

    /** Bytes in the spool file so far (records deflated), buffered ones included. */
    public long size() {
        return size;
    }

    /** Bytes of records appended, before deflating. */
    public long recordBytes() {
        return recordBytes;
    }

    /** The stream key of one thread's sample (ring 0) or event (ring 1) records. */
    public static long stream(int threadSeq, int ring) {
        return (Integer.toUnsignedLong(threadSeq) << 1) | ring;
    }

    /** Appends one whole record to a stream. */
    public void appendRecord(long stream, MemorySegment record) throws IOException {
        Pending p = pending.getIfAbsentPut(stream, Pending::new);
        int n = Math.toIntExact(record.byteSize());
        if (p.length > 0 && p.length + n > BLOCK) seal(stream, p);
        if (p.length + n > p.raw.length)
            p.raw = Arrays.copyOf(p.raw, Math.max(p.length + n, Math.min(BLOCK, 2 * p.raw.length)));
        MemorySegment.copy(record, ValueLayout.JAVA_BYTE, 0, p.raw, p.length, n);
        p.length += n;
        recordBytes += n;
    }

    /** Deflates a stream's pending records into a block of the file. */
    private void seal(long stream, Pending p) throws IOException {
        SpoolWriteEvent event = reporting && SpoolWriteEvent.on() ? new SpoolWriteEvent() : null;
        if (event != null) event.begin();
        deflater.reset();
        deflater.setInput(p.raw, 0, p.length);
        deflater.finish();
        int stored = 0;
        while (!deflater.finished()) {
            if (stored == packed.length) packed = Arrays.copyOf(packed, 2 * packed.length);
            stored += deflater.deflate(packed, stored, packed.length - stored);
        }
        long at = size;
        append(MemorySegment.ofArray(packed).asSlice(0, stored));
        MutableLongList blocks = index.getIfAbsentPut(stream, LongArrayList::new);
        blocks.add(at);
        blocks.add(stored);
        blocks.add(p.length);
        if (event != null)
            committed(
                    event, (int) (stream >>> 1), (stream & 1) == 0 ? "samples" : "callback records", p.length, stored);
        p.length = 0;
        if (p.raw.length > BLOCK) p.raw = new byte[BLOCK]; // one outsized record: do not keep its room
    }

    /** Appends raw bytes that belong to no stream (a module image) and returns where they are. */
    public Span appendBytes(MemorySegment bytes) throws IOException {
        SpoolWriteEvent event = reporting && SpoolWriteEvent.on() ? new SpoolWriteEvent() : null;
        if (event != null) event.begin();
        long at = size;
        append(bytes);
        if (event != null) committed(event, 0, "module image", bytes.byteSize(), bytes.byteSize());
        return new Span(at, bytes.byteSize());
    }

    private static void committed(SpoolWriteEvent event, int thread, String what, long raw, long stored) {
        event.end();
        if (!event.shouldCommit()) return;
        event.thread = thread;
        event.what = what;
        event.rawBytes = raw;
        event.storedBytes = stored;
        event.commit();
    }

    /** Appends a whole file's current contents; returns where they are. */
    public Span appendFile(Path file) throws IOException {
        SpoolWriteEvent event = reporting && SpoolWriteEvent.on() ? new SpoolWriteEvent() : null;
        if (event != null) event.begin();
        writeBuffer();
        long at = size;
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            long copied = 0;
            while (true) {
                channel.position(at + copied);
                long n = in.transferTo(copied, Long.MAX_VALUE, channel);
                if (n <= 0) break;
                copied += n;
            }
            size += copied;
            written += copied;
            if (event != null) committed(event, 0, "module image", copied, copied);
            return new Span(at, copied);
        }
    }

    private void append(MemorySegment bytes) throws IOException {
        long n = bytes.byteSize();
        if (n > buffer.remaining()) writeBuffer();
        if (n > buffer.capacity()) {
            writeFully(bytes.asByteBuffer());
        } else {
            MemorySegment.copy(bytes, 0, bufferSegment, buffer.position(), n);
            buffer.position(buffer.position() + (int) n);
        }
        size += n;
    }

    /** Writes every stream's pending records and all buffered bytes to the file. */
    public void flush() throws IOException {
        for (long stream : pending.keySet().toSortedArray()) {
            Pending p = pending.get(stream);
            if (p.length > 0) seal(stream, p);
        }
        writeBuffer();
    }

    private void writeBuffer() throws IOException {
        buffer.flip();
        writeFully(buffer);
        buffer.clear();
    }

    private void writeFully(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) written += channel.write(b, written);
    }

    /** The streams that received records. */
    public List<Long> streams() {
        List<Long> out = new ArrayList<>();
        index.keySet().forEach(out::add);
        pending.forEachKeyValue((stream, p) -> {
            if (p.length > 0 && !index.containsKey(stream)) out.add(stream);
        });
        return out;
    }

    /** Reads back the records of one stream, in append order. Call {@link #flush()} first. */
    public RecordCursor cursor(long stream) {
        MutableLongList blocks = index.get(stream);
        return new RecordCursor(channel, blocks == null ? new LongArrayList() : blocks);
    }

    /** The bytes of a span, as a stream. Call {@link #flush()} first. */
    public InputStream open(Span span) {
        return new SpanInputStream(channel, span);
    }

    /** Closes and deletes the spool file. */
    @Override
    public void close() throws IOException {
        deflater.end();
        try {
            channel.close();
        } finally {
            Files.deleteIfExists(path);
        }
    }

    /** Positional reads of one span; leaves the channel's position alone. */
    private static final class SpanInputStream extends InputStream {
        private final FileChannel channel;
        private long at;
        private final long end;

        SpanInputStream(FileChannel channel, Span span) {
            this.channel = channel;
            this.at = span.offset();
            this.end = span.offset() + span.length();
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (at >= end) return -1;
            int n = channel.read(ByteBuffer.wrap(b, off, (int) Math.min(len, end - at)), at);
            if (n < 0) return -1;
            at += n;
            return n;
        }
    }

    /** Reads the records of one stream block by block; each block holds whole records. */
    public static final class RecordCursor {
        private final FileChannel channel;
        private final MutableLongList blocks;
        private int nextBlock;
        private MemorySegment current = MemorySegment.NULL;
        private long pos;

        RecordCursor(FileChannel channel, MutableLongList blocks) {
            this.channel = channel;
            this.blocks = blocks;
        }

        /** The next record (a view valid until the next call), or null at the end. */
        public MemorySegment next() throws IOException {
            while (pos >= current.byteSize()) {
                if (nextBlock >= blocks.size()) return null;
                current = readBlock(blocks.get(nextBlock), blocks.get(nextBlock + 1), blocks.get(nextBlock + 2));
                nextBlock += 3;
                pos = 0;
            }
            long size = Integer.toUnsignedLong(Le.u32(current, pos));
            if (size < 8 || size > current.byteSize() - pos)
                throw new IOException("spool record of " + size + " bytes at " + pos);
            MemorySegment rec = current.asSlice(pos, size);
            pos += size;
            return rec;
        }

        private MemorySegment readBlock(long offset, long stored, long raw) throws IOException {
            ByteBuffer b = ByteBuffer.allocate(Math.toIntExact(stored));
            long at = offset;
            while (b.hasRemaining()) {
                int n = channel.read(b, at);
                if (n < 0) throw new IOException("spool file shorter than its index");
                at += n;
            }
            byte[] out = new byte[Math.toIntExact(raw)];
            Inflater inf = new Inflater();
            try {
                inf.setInput(b.array());
                int filled = 0;
                while (filled < out.length) {
                    int k = inf.inflate(out, filled, out.length - filled);
                    if (k == 0 && (inf.finished() || inf.needsInput())) break;
                    filled += k;
                }
                if (filled != out.length)
                    throw new IOException(
                            "spool block at " + offset + " inflates to " + filled + " of " + raw + " bytes");
            } catch (DataFormatException e) {
                throw new IOException("spool block at " + offset + " does not inflate: " + e.getMessage(), e);
            } finally {
                inf.end();
            }
            return MemorySegment.ofArray(out);
        }
    }
}
