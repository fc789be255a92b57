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
 * stays flat however long it runs. Records are appended per stream (one thread's sample or event
 * ring), gathered per stream into blocks of {@link #BLOCK} bytes (a record may span two; a long run
 * of callback records is a block of its own, see {@link #DIRECT_FROM}). Sample
 * blocks are deflated (fast level) as they fill: stack slices shrink severalfold. Event blocks
 * are small records written millions of times a second in region-heavy programs, and the drainer
 * shares the program's cores, so they are stored as they are until the spool passes {@link
 * #RAW_EVENTS_UP_TO}, and deflated from then on: a long run's disk stays bounded. An index of
 * blocks per stream lets the recording be written thread by thread afterwards.
 */
public final class Spool implements AutoCloseable {
    /** Raw bytes per block: what one stream holds in memory before it is deflated and written. */
    static final int BLOCK = 128 << 10;

    /** Spool bytes up to which event blocks are stored undeflated. */
    static final long RAW_EVENTS_UP_TO = 512L << 20;

    /**
     * Runs of callback records this long, while they are stored undeflated, go to the file straight from the ring as
     * their own block: the kernel's copy alone, where a run through a block took two more (ring to block, block to
     * buffer). At 200,000 regions a second those copies were most of the drainer's CPU, taken from the program's
     * cores.
     */
    static final int DIRECT_FROM = 32 << 10;

    private static final int BUFFER = 1 << 20;
    private static final int COMPRESSION = 1;
    private static final int SAMPLE_RING = 0;

    /** A stretch of the spool file. */
    public record Span(long offset, long length) {}

    /** One stream's records not yet in the file. */
    private static final class Pending {
        byte[] raw = new byte[4096];
        int length;
    }

    /** Where a block's index entry keeps what: the index holds {@link #ENTRY} longs per block. */
    private static final int AT = 0, STORED = 1, RAW = 2, DEFLATED = 3, ENTRY = 4;

    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER);
    private final MemorySegment bufferSegment = MemorySegment.ofBuffer(buffer);
    /** Per stream: its blocks' file offsets, stored and raw lengths, and whether deflated ({@link #ENTRY} each). */
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
    /** Runs written straight from the ring ({@link #DIRECT_FROM}). */
    private long directBlocks;
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

    /**
     * A write's event, or null (nothing allocated, nor the class loaded, when JFR is off). While JFR records it is
     * asked even when quiet: the warm-up's asking registers the event class before the program runs.
     */
    private SpoolWriteEvent event() {
        return JfrRecording.active() && SpoolWriteEvent.on() && reporting ? new SpoolWriteEvent() : null;
    }

    public Path path() {
        return path;
    }

    /** Bytes in the spool file so far (records deflated), buffered ones included. */
    public long size() {
        return size;
    }

    /** Runs written to the file as blocks of their own, straight from where they were ({@link #DIRECT_FROM}). */
    long directBlocks() {
        return directBlocks;
    }

    /** Bytes of records appended, before deflating. */
    public long recordBytes() {
        return recordBytes;
    }

    /** The stream key of one thread's sample (ring 0) or event (ring 1) records. */
    public static long stream(int threadSeq, int ring) {
        return (Integer.toUnsignedLong(threadSeq) << 1) | ring;
    }

    /** Appends whole records to a stream; they may be more than a block. */
    public void append(long stream, MemorySegment records) throws IOException {
        if ((stream & 1) != SAMPLE_RING && size <= RAW_EVENTS_UP_TO && records.byteSize() >= DIRECT_FROM) {
            appendDirect(stream, records);
            return;
        }
        Pending p = pending.getIfAbsentPut(stream, Pending::new);
        long n = records.byteSize();
        for (long done = 0; done < n; ) {
            if (p.length == BLOCK) seal(stream, p);
            int take = (int) Math.min(n - done, BLOCK - p.length);
            if (p.length + take > p.raw.length)
                p.raw = Arrays.copyOf(p.raw, Math.max(p.length + take, Math.min(BLOCK, 2 * p.raw.length)));
            MemorySegment.copy(records, ValueLayout.JAVA_BYTE, done, p.raw, p.length, take);
            p.length += take;
            done += take;
        }
        recordBytes += n;
    }

    /** Writes a run of records to the file as a block of its own, after the stream's pending ones. */
    private void appendDirect(long stream, MemorySegment records) throws IOException {
        Pending p = pending.get(stream);
        if (p != null && p.length > 0) seal(stream, p);
        SpoolWriteEvent event = event();
        if (event != null) event.begin();
        writeBuffer(); // the buffered bytes come first in the file
        long at = size, n = records.byteSize();
        writeFully(records.asByteBuffer());
        size += n;
        recordBytes += n;
        directBlocks++;
        indexBlock(stream, at, n, n, false);
        if (event != null) committed(event, stream, n, n);
    }

    /** Writes a stream's pending records into a block of the file, deflated or as they are. */
    private void seal(long stream, Pending p) throws IOException {
        SpoolWriteEvent event = event();
        if (event != null) event.begin();
        boolean deflate = (stream & 1) == SAMPLE_RING || size > RAW_EVENTS_UP_TO;
        int stored = deflate ? deflate(p) : p.length;
        long at = size;
        append(MemorySegment.ofArray(deflate ? packed : p.raw).asSlice(0, stored));
        indexBlock(stream, at, stored, p.length, deflate);
        if (event != null) committed(event, stream, p.length, stored);
        p.length = 0;
    }

    /** A stream's next block: where it is in the file, its bytes there and as records, and whether deflated. */
    private void indexBlock(long stream, long at, long stored, long raw, boolean deflated) {
        index.getIfAbsentPut(stream, LongArrayList::new).addAll(at, stored, raw, deflated ? 1 : 0);
    }

    private static void committed(SpoolWriteEvent event, long stream, long raw, long stored) {
        String what = (stream & 1) == SAMPLE_RING ? "samples" : "callback records";
        committed(event, (int) (stream >>> 1), what, raw, stored);
    }

    /** Deflates the pending records into {@link #packed}; returns the deflated length. */
    private int deflate(Pending p) {
        deflater.reset();
        deflater.setInput(p.raw, 0, p.length);
        deflater.finish();
        int stored = 0;
        while (!deflater.finished()) {
            if (stored == packed.length) packed = Arrays.copyOf(packed, 2 * packed.length);
            stored += deflater.deflate(packed, stored, packed.length - stored);
        }
        return stored;
    }

    /** Appends raw bytes that belong to no stream (a module image) and returns where they are. */
    public Span appendBytes(MemorySegment bytes) throws IOException {
        SpoolWriteEvent event = event();
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
        SpoolWriteEvent event = event();
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
        // loops, not lambdas: this runs once, at the program's end, where a lambda's linking is most of its cost
        List<Long> out = new ArrayList<>();
        for (long stream : index.keySet().toArray()) out.add(stream);
        for (long stream : pending.keySet().toArray()) {
            if (pending.get(stream).length > 0 && !index.containsKey(stream)) out.add(stream);
        }
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

    /** Reads the records of one stream block by block; a record may span two blocks. */
    public static final class RecordCursor {
        private final FileChannel channel;
        private final MutableLongList blocks;
        private int nextBlock;
        private byte[] bytes = new byte[0];
        private int pos;
        private int end;
        /** The current record. */
        private int at;

        private int size;

        RecordCursor(FileChannel channel, MutableLongList blocks) {
            this.channel = channel;
            this.blocks = blocks;
        }

        /**
         * Moves to the next record: its {@link #size()} bytes lie in {@link #bytes()} from {@link #at()}, until the
         * next call. False at the end. Readers of millions of records read them there, with no view made per record.
         */
        public boolean advance() throws IOException {
            if (!have(Integer.BYTES)) {
                if (pos == end) return false;
                throw new IOException("spool stream ends inside a record header");
            }
            long n = Integer.toUnsignedLong(Le.u32(bytes, pos));
            if (n < 8 || n > Integer.MAX_VALUE - BLOCK) throw new IOException("spool record of " + n + " bytes");
            if (!have((int) n)) throw new IOException("spool stream ends inside a record of " + n + " bytes");
            at = pos;
            size = (int) n;
            pos += size;
            return true;
        }

        /** The array the current record lies in. */
        public byte[] bytes() {
            return bytes;
        }

        /** Where the current record starts in {@link #bytes()}. */
        public int at() {
            return at;
        }

        /** The current record's size in bytes. */
        public int size() {
            return size;
        }

        /** Whether {@code n} bytes are ready from {@code pos}, reading blocks as needed. */
        private boolean have(int n) throws IOException {
            while (end - pos < n) {
                if (nextBlock >= blocks.size()) return false;
                int raw = Math.toIntExact(blocks.get(nextBlock + RAW));
                int left = end - pos;
                // the array is reused when it holds the rest and the block: fresh ones cost page faults
                byte[] joined = bytes.length >= left + raw ? bytes : new byte[left + raw];
                System.arraycopy(bytes, pos, joined, 0, left);
                readBlock(nextBlock, joined, left);
                bytes = joined;
                end = left + raw;
                pos = 0;
                nextBlock += ENTRY;
            }
            return true;
        }

        /** Reads block {@code i} of the index into {@code out} from {@code into}. */
        private void readBlock(int i, byte[] out, int into) throws IOException {
            long offset = blocks.get(i + AT);
            int stored = Math.toIntExact(blocks.get(i + STORED));
            boolean deflated = blocks.get(i + DEFLATED) != 0;
            if (!deflated && stored != blocks.get(i + RAW))
                throw new IOException(
                        "spool block at " + offset + " stores " + stored + " of " + blocks.get(i + RAW) + " bytes");
            ByteBuffer b = deflated ? ByteBuffer.allocate(stored) : ByteBuffer.wrap(out, into, stored);
            for (long at = offset; b.hasRemaining(); ) {
                int n = channel.read(b, at);
                if (n < 0) throw new IOException("spool file shorter than its index");
                at += n;
            }
            if (!deflated) return;
            Inflater inf = new Inflater();
            try {
                inf.setInput(b.array());
                int filled = into, full = into + Math.toIntExact(blocks.get(i + RAW));
                while (filled < full) {
                    int k = inf.inflate(out, filled, full - filled);
                    if (k == 0 && (inf.finished() || inf.needsInput())) break;
                    filled += k;
                }
                if (filled != full)
                    throw new IOException("spool block at " + offset + " inflates to " + (filled - into) + " of "
                            + (full - into) + " bytes");
            } catch (DataFormatException e) {
                throw new IOException("spool block at " + offset + " does not inflate: " + e.getMessage(), e);
            } finally {
                inf.end();
            }
        }
    }
}
