package org.ompprof.sampler.recording;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32C;
import java.util.zip.Deflater;
import org.ompprof.sampler.record.RepeatedSamples;
import org.ompprof.sampler.wire.Wire;

/**
 * Streams a recording to a temporary file next to the output; {@link #commit()} makes it durable
 * (unless it is {@link #forOneRead()}) and renames it over the output atomically. Until then the
 * output (an older recording, maybe) is untouched, and closing without committing deletes the
 * temporary file. Memory use is bounded by one chunk of {@link RecordingFormat#CHUNK} bytes,
 * whatever the recording's size (one per thread's records being written at once).
 *
 * <p>Several threads' records may be written at once, each through its own {@link ThreadRecords}
 * on its own thread: each compresses its chunks itself, and only appending a finished section
 * takes the writer's lock. Their sections interleave in the file; readers group them by thread.
 */
public final class RecordingWriter implements AutoCloseable {
    private static final int SMALL_LEVEL = 6;
    private static final int BULK_LEVEL = 1;

    private final Path output;
    private final Path temp;
    private final FileChannel channel;
    private final OutputStream out;
    private final Deflater deflater = new Deflater();
    private long position;
    private int sections;
    /** See {@link #forOneRead()}. */
    private boolean readOnce;
    /** A module image's chunk on its way into a section, kept for the next image (4 MiB to clear each time). */
    private byte[] imageChunk;

    private boolean committed;
    private boolean closed;

    private RecordingWriter(Path output, Path temp, FileChannel channel) {
        this.output = output;
        this.temp = temp;
        this.channel = channel;
        this.out = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16);
    }

    /**
     * A recording read once and deleted (record's raw recording on its way to the profile): records and module image
     * sections are stored as they are, not deflated, which would be most of the time it lives, and commit does not
     * force it to disk.
     */
    public RecordingWriter forOneRead() {
        readOnce = true;
        return this;
    }

    /** The level records and module image sections are written at: BULK_LEVEL, or stored as they are (-1). */
    private int bulkLevel() {
        return readOnce ? -1 : BULK_LEVEL;
    }

    /** Starts a recording that will replace {@code output} on {@link #commit()}. */
    public static RecordingWriter create(Path output) throws IOException {
        byte[] random = new byte[4];
        new SecureRandom().nextBytes(random);
        Path temp = output.resolveSibling(
                output.getFileName() + ".tmp-" + HexFormat.of().formatHex(random));
        FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        // A JVM told to go while it writes (SIGTERM: an MPI launcher sends it to every rank when one fails) leaves no
        // half-written file next to the output; once committed, the name is gone and this does nothing.
        temp.toFile().deleteOnExit();
        RecordingWriter w = new RecordingWriter(output, temp, ch);
        try {
            w.writeFileHeader();
        } catch (IOException | RuntimeException e) {
            w.close();
            throw e;
        }
        return w;
    }

    /** The temporary file being written (for diagnostics). */
    public Path tempFile() {
        return temp;
    }

    private void writeFileHeader() throws IOException {
        byte[] h = new byte[RecordingFormat.FILE_HEADER_SIZE];
        System.arraycopy(RecordingFormat.MAGIC, 0, h, 0, 8);
        putInt(h, 8, RecordingFormat.VERSION);
        write(h, 0, h.length);
    }

    public void metadata(Metadata m) throws IOException {
        section(SectionKind.METADATA, SectionCodec.metadata(m), SMALL_LEVEL);
    }

    public void threads(List<ThreadInfo> threads) throws IOException {
        section(SectionKind.THREADS, SectionCodec.threads(threads), SMALL_LEVEL);
    }

    public void modules(List<ModuleInfo> modules) throws IOException {
        section(SectionKind.MODULES, SectionCodec.modules(modules), SMALL_LEVEL);
    }

    public void stats(Stats stats) throws IOException {
        section(SectionKind.STATS, SectionCodec.stats(stats), SMALL_LEVEL);
    }

    /** A profile section whose payload another stage encoded; big ones are compressed for speed. */
    public void section(SectionKind kind, byte[] payload) throws IOException {
        if (kind == SectionKind.TIMELINE
                || kind == SectionKind.RECORDS
                || kind == SectionKind.MODULE_IMAGE
                || kind == SectionKind.END) {
            throw new IllegalArgumentException(kind + " sections have their own writer");
        }
        section(kind, payload, payload.length < (1 << 16) ? SMALL_LEVEL : BULK_LEVEL);
    }

    /**
     * One run of a thread's timeline (calltree's TimelineCodec payload) compressed and checksummed, on any thread, for
     * {@link #append(EncodedSection)}: runs are compressed where they do not hold up the thread that builds them, and
     * appended in its order.
     */
    public static EncodedSection encodedTimeline(int threadSeq, byte[] samples) {
        byte[] buf = new byte[RecordingFormat.RECORDS_PREFIX + samples.length];
        putInt(buf, 0, threadSeq);
        System.arraycopy(samples, 0, buf, RecordingFormat.RECORDS_PREFIX, samples.length);
        Deflater deflater = new Deflater();
        try {
            return encode(SectionKind.TIMELINE, buf, buf.length, BULK_LEVEL, deflater, 0);
        } finally {
            deflater.end();
        }
    }

    /** Named counters (the stitcher's, for a profile). */
    public void counters(SectionKind kind, java.util.Map<String, Long> counters) throws IOException {
        section(kind, SectionCodec.counters(counters), SMALL_LEVEL);
    }

    /** Copies a module's image from {@code in} into MODULE_IMAGE sections; returns its length. */
    public synchronized long moduleImage(long moduleId, InputStream in) throws IOException {
        if (imageChunk == null) imageChunk = new byte[RecordingFormat.IMAGE_PREFIX + RecordingFormat.CHUNK];
        byte[] buf = imageChunk;
        long offset = 0;
        while (true) {
            int n = in.readNBytes(buf, RecordingFormat.IMAGE_PREFIX, RecordingFormat.CHUNK);
            if (n == 0 && offset > 0) return offset;
            putLong(buf, 0, moduleId);
            putLong(buf, 8, offset);
            section(SectionKind.MODULE_IMAGE, buf, RecordingFormat.IMAGE_PREFIX + n, bulkLevel());
            offset += n;
            if (n < RecordingFormat.CHUNK) return offset;
        }
    }

    /**
     * Starts the records of one thread. One thread's records go through one writer, on one
     * thread at a time; other threads' writers may be used at the same time.
     */
    public ThreadRecords threadRecords(int threadSeq) {
        return new ThreadRecords(threadSeq);
    }

    /** Appends whole wire records of one thread, cutting RECORDS sections at chunk boundaries. */
    public final class ThreadRecords implements AutoCloseable {
        private final int threadSeq;
        private byte[] buf = new byte[RecordingFormat.RECORDS_PREFIX + 64 * 1024];
        private int length = RecordingFormat.RECORDS_PREFIX;
        private long records;
        /** Whether the section being filled holds samples alone (RecordingFormat.FLAG_SAMPLES_ONLY). */
        private boolean samplesOnly = true;
        /** Where in {@link #buf} the section's last whole sample lies, and its size (-1: none yet). */
        private int lastSampleAt = -1, lastSampleSize;
        /** The last whole sample of the sections before: a section read apart begins with a whole one. */
        private byte[] sampleBefore;

        /** This thread's own, so chunks are compressed outside the writer's lock; none for stored records. */
        private final Deflater chunkDeflater = readOnce ? null : new Deflater();

        private ThreadRecords(int threadSeq) {
            this.threadSeq = threadSeq;
        }

        /** One record's bytes, as the agent wrote them. */
        public void add(byte[] record) throws IOException {
            add(record, 0, record.length);
        }

        /** The record of {@code n} bytes at {@code at} of {@code array}. */
        public void add(byte[] array, int at, int n) throws IOException {
            if (length > RecordingFormat.RECORDS_PREFIX
                    && length + n > RecordingFormat.RECORDS_PREFIX + RecordingFormat.RECORDS_CHUNK) flush();
            if (lastSampleAt < 0 && sampleBefore != null && RepeatedSamples.isRepeat(array, at, n)) {
                byte[] whole = RepeatedSamples.expanded(sampleBefore, array, at);
                add(whole, 0, whole.length);
                return;
            }
            if (RepeatedSamples.isWholeSample(array, at, n)) {
                lastSampleAt = length;
                lastSampleSize = n;
            }
            ensure(length + n);
            System.arraycopy(array, at, buf, length, n);
            length += n;
            records++;
            samplesOnly &= n >= Wire.RecordHeader.SIZEOF && RecordingFormat.recordType(array, at) == Wire.REC_SAMPLE;
        }

        public long records() {
            return records;
        }

        private void ensure(int capacity) {
            if (capacity > buf.length)
                buf = Arrays.copyOf(
                        buf,
                        Math.max(
                                capacity,
                                Math.min(
                                        2 * buf.length,
                                        RecordingFormat.RECORDS_PREFIX + RecordingFormat.RECORDS_CHUNK)));
        }

        private void flush() throws IOException {
            if (length == RecordingFormat.RECORDS_PREFIX) return;
            putInt(buf, 0, threadSeq);
            putInt(buf, 4, 0);
            int flags = samplesOnly ? RecordingFormat.FLAG_SAMPLES_ONLY : 0;
            append(encode(SectionKind.RECORDS, buf, length, bulkLevel(), chunkDeflater, flags));
            if (lastSampleAt >= 0) sampleBefore = Arrays.copyOfRange(buf, lastSampleAt, lastSampleAt + lastSampleSize);
            lastSampleAt = -1;
            length = RecordingFormat.RECORDS_PREFIX;
            samplesOnly = true;
        }

        @Override
        public void close() throws IOException {
            try {
                flush();
            } finally {
                if (chunkDeflater != null) chunkDeflater.end();
            }
        }
    }

    private void section(SectionKind kind, byte[] raw, int level) throws IOException {
        section(kind, raw, raw.length, level);
    }

    /** Writes one section; a negative level stores the payload as it is. */
    private void section(SectionKind kind, byte[] raw, int rawLength, int level) throws IOException {
        append(encode(kind, raw, rawLength, level, deflater, 0));
    }

    /**
     * A section as it goes into the file: its header, and its payload as stored. Opaque outside this writer (the
     * timelines' runs are encoded ahead, {@link #encodedTimeline}), and never changed.
     */
    public static final class EncodedSection {
        private final byte[] header;
        private final byte[] stored;
        private final int storedLength;

        private EncodedSection(byte[] header, byte[] stored, int storedLength) {
            this.header = header;
            this.stored = stored;
            this.storedLength = storedLength;
        }
    }

    /**
     * Compresses (unless the level is negative, or it does not shrink) and checksums a section, with {@code flags}
     * besides the compression's; no file access.
     */
    private static EncodedSection encode(
            SectionKind kind, byte[] raw, int rawLength, int level, Deflater deflater, int flags) {
        byte[] stored = raw;
        int storedLength = rawLength;
        byte[] packed = level < 0 ? null : deflate(deflater, raw, rawLength, level);
        if (packed != null && packed.length < rawLength) {
            stored = packed;
            storedLength = packed.length;
            flags |= RecordingFormat.FLAG_DEFLATE;
        }
        CRC32C crc = new CRC32C();
        crc.update(stored, 0, storedLength);
        byte[] h = new byte[RecordingFormat.SECTION_HEADER_SIZE];
        putInt(h, 0, kind.code());
        putInt(h, 4, flags);
        putLong(h, 8, rawLength);
        putLong(h, 16, storedLength);
        putInt(h, 24, (int) crc.getValue());
        return new EncodedSection(h, stored, storedLength);
    }

    /** Writes a section encoded here or ahead ({@link #encodedTimeline}). */
    public synchronized void append(EncodedSection e) throws IOException {
        if (committed || closed) throw new IllegalStateException("recording already finished");
        write(e.header, 0, e.header.length);
        write(e.stored, 0, e.storedLength);
        sections++;
    }

    private static byte[] deflate(Deflater deflater, byte[] raw, int length, int level) {
        deflater.reset();
        deflater.setLevel(level);
        deflater.setInput(raw, 0, length);
        deflater.finish();
        ByteArrayOutputStream packed = new ByteArrayOutputStream(Math.max(64, length / 3));
        byte[] buf = new byte[64 * 1024];
        while (!deflater.finished()) {
            int n = deflater.deflate(buf);
            packed.write(buf, 0, n);
            if (packed.size() > length) break; // incompressible: store it raw
        }
        return packed.toByteArray();
    }

    private void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        position += len;
    }

    /** Bytes written so far. */
    public synchronized long position() {
        return position;
    }

    /**
     * Ends the recording, forces it to disk (unless {@link #forOneRead()}) and renames it over the output. Returns the
     * size of the finished file.
     */
    public synchronized long commit() throws IOException {
        byte[] count = new byte[4];
        putInt(count, 0, sections);
        section(SectionKind.END, count, -1);
        out.flush();
        if (!readOnce) channel.force(true);
        channel.close();
        Files.move(temp, output, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        committed = true;
        if (!readOnce) syncDirectory(output.toAbsolutePath().getParent());
        return position;
    }

    /** The rename itself must reach the disk too; not every file system lets us, which is fine. */
    private static void syncDirectory(Path dir) {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException | RuntimeException ignored) {
            // best effort
        }
    }

    /** Abandons an uncommitted recording: the temporary file goes, the output stays as it was. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        deflater.end();
        if (committed) return;
        try {
            channel.close();
        } catch (IOException ignored) {
            // deleting it is what matters
        }
        try {
            Files.deleteIfExists(temp);
        } catch (IOException ignored) {
            // nothing more we can do
        }
    }

    static void putInt(byte[] b, int off, int v) {
        for (int i = 0; i < 4; i++) b[off + i] = (byte) (v >>> (8 * i));
    }

    static void putLong(byte[] b, int off, long v) {
        for (int i = 0; i < 8; i++) b[off + i] = (byte) (v >>> (8 * i));
    }
}
