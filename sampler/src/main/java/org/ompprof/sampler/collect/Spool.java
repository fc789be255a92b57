package org.ompprof.sampler.collect;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import org.ompprof.sampler.record.Le;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.collections.api.list.primitive.MutableLongList;
import org.eclipse.collections.api.map.primitive.MutableLongObjectMap;
import org.eclipse.collections.impl.list.mutable.primitive.LongArrayList;
import org.eclipse.collections.impl.map.mutable.primitive.LongObjectHashMap;

/**
 * Append-only temporary file for everything drained while the program runs, so that memory
 * stays flat however long it runs. Records are appended whole, per stream (one thread's sample
 * or event ring); an index of spans per stream lets the recording be written thread by thread
 * afterwards. Spans are capped at {@link #MAX_SPAN} bytes (unless one record is larger) so that
 * reading one back needs a bounded buffer.
 */
public final class Spool implements AutoCloseable {
    static final int MAX_SPAN = 1 << 20;
    private static final int BUFFER = 1 << 20;

    /** A stretch of the spool file. */
    public record Span(long offset, long length) {}

    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER);
    private final MemorySegment bufferSegment = MemorySegment.ofBuffer(buffer);
    /** Per stream: span offsets and lengths, interleaved. */
    private final MutableLongObjectMap<MutableLongList> index = new LongObjectHashMap<>();
    /** Bytes appended, buffered ones included. */
    private long size;
    /** Bytes in the file. */
    private long written;

    private Spool(Path path, FileChannel channel) {
        this.path = path;
        this.channel = channel;
    }

    /** A new spool file in {@code dir} (next to the output), readable only by us and already unlinked. */
    public static Spool create(Path dir, String namePrefix) throws IOException {
        Path path = Files.createTempFile(dir, namePrefix, ".spool",
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

    public Path path() {
        return path;
    }

    /** Bytes appended so far. */
    public long size() {
        return size;
    }

    /** The stream key of one thread's sample (ring 0) or event (ring 1) records. */
    public static long stream(int threadSeq, int ring) {
        return (Integer.toUnsignedLong(threadSeq) << 1) | ring;
    }

    /** Appends one whole record to a stream. */
    public void appendRecord(long stream, MemorySegment record) throws IOException {
        long at = size;
        append(record);
        MutableLongList spans = index.getIfAbsentPut(stream, LongArrayList::new);
        int n = spans.size();
        if (n > 0 && spans.get(n - 2) + spans.get(n - 1) == at && spans.get(n - 1) + record.byteSize() <= MAX_SPAN) {
            spans.set(n - 1, spans.get(n - 1) + record.byteSize());
        } else {
            spans.add(at);
            spans.add(record.byteSize());
        }
    }

    /** Appends raw bytes that belong to no stream (a module image) and returns where they are. */
    public Span appendBytes(MemorySegment bytes) throws IOException {
        long at = size;
        append(bytes);
        return new Span(at, bytes.byteSize());
    }

    /** Appends a whole file's current contents; returns where they are. */
    public Span appendFile(Path file) throws IOException {
        flush();
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
            return new Span(at, copied);
        }
    }

    private void append(MemorySegment bytes) throws IOException {
        long n = bytes.byteSize();
        if (n > buffer.remaining()) flush();
        if (n > buffer.capacity()) {
            writeFully(bytes.asByteBuffer());
        } else {
            MemorySegment.copy(bytes, 0, bufferSegment, buffer.position(), n);
            buffer.position(buffer.position() + (int) n);
        }
        size += n;
    }

    /** Writes buffered bytes to the file. */
    public void flush() throws IOException {
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
        return out;
    }

    /** Reads back the records of one stream, in append order. Call {@link #flush()} first. */
    public RecordCursor cursor(long stream) {
        MutableLongList spans = index.get(stream);
        return new RecordCursor(channel, spans == null ? new LongArrayList() : spans);
    }

    /** The bytes of a span, as a stream. Call {@link #flush()} first. */
    public InputStream open(Span span) {
        return new SpanInputStream(channel, span);
    }

    /** Closes and deletes the spool file. */
    @Override
    public void close() throws IOException {
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

    /** Reads the records of one stream span by span; each span holds whole records. */
    public static final class RecordCursor {
        private final FileChannel channel;
        private final MutableLongList spans;
        private int nextSpan;
        private MemorySegment current = MemorySegment.NULL;
        private long pos;

        RecordCursor(FileChannel channel, MutableLongList spans) {
            this.channel = channel;
            this.spans = spans;
        }

        /** The next record (a view valid until the next call), or null at the end. */
        public MemorySegment next() throws IOException {
            while (pos >= current.byteSize()) {
                if (nextSpan >= spans.size()) return null;
                current = readSpan(spans.get(nextSpan), spans.get(nextSpan + 1));
                nextSpan += 2;
                pos = 0;
            }
            long size = Integer.toUnsignedLong(Le.u32(current, pos));
            if (size < 8 || size > current.byteSize() - pos) throw new IOException("spool record of " + size + " bytes at " + pos);
            MemorySegment rec = current.asSlice(pos, size);
            pos += size;
            return rec;
        }

        private MemorySegment readSpan(long offset, long length) throws IOException {
            ByteBuffer b = ByteBuffer.allocate(Math.toIntExact(length));
            long at = offset;
            while (b.hasRemaining()) {
                int n = channel.read(b, at);
                if (n < 0) throw new IOException("spool file shorter than its index");
                at += n;
            }
            return MemorySegment.ofArray(b.array());
        }
    }
}
