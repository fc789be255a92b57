package org.ompprof.sampler.recording;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import java.util.zip.CRC32C;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.ompprof.sampler.UserError;
import org.ompprof.sampler.record.MalformedRecordException;
import org.ompprof.sampler.record.RecordDecoder;
import org.ompprof.sampler.record.RecordVisitor;
import org.ompprof.sampler.record.WireRecord;
import org.ompprof.sampler.recording.PayloadReader.BadPayload;
import org.ompprof.sampler.wire.Wire;

/**
 * A recording opened for reading. {@link #open} checks the whole container up front (magic,
 * version, every section's bounds and checksum, the END section) and decodes the small tables;
 * records and module images are inflated and decoded as they are asked for, one chunk at a
 * time. Every problem becomes a {@link RecordingFormatException} naming the file and offset.
 */
public final class Recording implements AutoCloseable {
    /** Reads every thread's sections ({@link #recordBatches}). */
    public static final long ALL_THREADS = -1;

    /** Where a section lies; {@code key} is the thread (RECORDS, TIMELINE) or module id (MODULE_IMAGE). */
    public record SectionRef(
            SectionKind kind, long offset, int flags, long rawLength, long storedLength, long key, long imageOffset) {
        long payloadOffset() {
            return offset + RecordingFormat.SECTION_HEADER_SIZE;
        }
    }

    private final Path path;
    private final FileChannel channel;
    private final int formatVersion;
    private final List<SectionRef> sections;
    private final Metadata metadata;
    private final List<ThreadInfo> threads;
    private final List<ModuleInfo> modules;
    private final Stats stats;
    /**
     * Per section (by index in {@link #sections}), the record types seen in it once it has been read
     * through ({@link #TYPES_KNOWN} set): later reads skip, without inflating it, a section that holds
     * none of the types they want. Only in memory: the file is not changed.
     */
    private final AtomicLongArray recordTypes;

    private static final long TYPES_KNOWN = 1L << 63;
    /** A type beyond the mask's bits (damage; the decoder rejects it) marks every type as present. */
    private static final int MASK_TYPES = 63;

    private Recording(Path path, FileChannel channel) throws IOException {
        this.path = path;
        this.channel = channel;
        this.formatVersion = readFileHeader();
        this.sections = Collections.unmodifiableList(scanSections());
        this.metadata = table(SectionKind.METADATA, SectionCodec::metadata);
        this.threads = List.copyOf(table(SectionKind.THREADS, SectionCodec::threads));
        this.modules = List.copyOf(table(SectionKind.MODULES, SectionCodec::modules));
        this.stats = table(SectionKind.STATS, SectionCodec::stats);
        this.recordTypes = new AtomicLongArray(sections.size());
        for (int i = 0; i < sections.size(); i++)
            if (samplesOnly(sections.get(i))) recordTypes.set(i, 1L << Wire.REC_SAMPLE | TYPES_KNOWN);
    }

    /** A RECORDS section its writer marked as holding samples alone: known without inflating it. */
    private static boolean samplesOnly(SectionRef s) {
        return (s.flags() & RecordingFormat.FLAG_SAMPLES_ONLY) != 0;
    }

    /** Opens and checks a recording; throws {@link UserError}s with one-line messages. */
    public static Recording open(Path path) {
        FileChannel ch;
        try {
            ch = FileChannel.open(path, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            throw new UserError("no such file: " + path);
        } catch (AccessDeniedException e) {
            throw new UserError("permission denied: " + path);
        } catch (IOException e) {
            throw new UserError("cannot read " + path + ": " + e.getMessage());
        }
        try {
            return new Recording(path, ch);
        } catch (IOException e) {
            closeQuietly(ch);
            throw new UserError("cannot read " + path + ": " + e.getMessage());
        } catch (RuntimeException | Error e) {
            closeQuietly(ch);
            throw e;
        }
    }

    public Path path() {
        return path;
    }

    public int formatVersion() {
        return formatVersion;
    }

    public Metadata metadata() {
        return metadata;
    }

    public List<ThreadInfo> threads() {
        return threads;
    }

    public List<ModuleInfo> modules() {
        return modules;
    }

    public Optional<ModuleInfo> module(long moduleId) {
        return modules.stream().filter(m -> m.moduleId() == moduleId).findFirst();
    }

    public Stats stats() {
        return stats;
    }

    /** Every section in file order, END excluded. */
    public List<SectionRef> sections() {
        return sections;
    }

    /** The threads that have records, by thread number. */
    public List<Integer> recordThreads() {
        Set<Integer> seqs = new TreeSet<>(Integer::compareUnsigned);
        for (SectionRef s : sections) if (s.kind() == SectionKind.RECORDS) seqs.add((int) s.key());
        return List.copyOf(seqs);
    }

    /**
     * All records, thread by thread, each thread's in time order. Lazy: one chunk is decoded at
     * a time. A record that does not decode throws {@link RecordingFormatException}.
     */
    public Stream<WireRecord> records() {
        return records(type -> true);
    }

    /**
     * As {@link #records()}, only the records whose wire type ({@code Wire.REC_*}) {@code types} accepts; the others
     * are not decoded, and sections already read through that hold none of them are not even inflated.
     */
    public Stream<WireRecord> records(IntPredicate types) {
        return recordSections(ALL_THREADS).stream().flatMap(i -> decodeRecords(i, types));
    }

    /** The records of one thread, in time order. */
    public Stream<WireRecord> records(int threadSeq) {
        return records(threadSeq, type -> true);
    }

    /** As {@link #records(int)}, only the records whose wire type {@code types} accepts. */
    public Stream<WireRecord> records(int threadSeq, IntPredicate types) {
        return recordSections(Integer.toUnsignedLong(threadSeq)).stream().flatMap(i -> decodeRecords(i, types));
    }

    /**
     * As {@link #records(IntPredicate)} (or, for a {@code threadSeq} other than {@link #ALL_THREADS},
     * {@link #records(int, IntPredicate)}), one batch per record section in file order, the sections
     * inflated and decoded as {@code ahead} says: a reader on its own thread, with the decoding on
     * others. A bad record throws {@link RecordingFormatException} where its section's list would come.
     */
    public Iterator<RecordBatch> recordBatches(long threadSeq, IntPredicate types, ReadAhead ahead) {
        return recordBatches(threadSeq, types, ahead, KeptRecords.NONE);
    }

    /**
     * As {@link #recordBatches(long, IntPredicate, ReadAhead)}, leaving the records of {@code keep}'s types of the
     * sections inflated here in {@code keep}, while its budget lasts, for a later {@link #keptBatches} of them.
     */
    public Iterator<RecordBatch> recordBatches(long threadSeq, IntPredicate types, ReadAhead ahead, KeptRecords keep) {
        return batches(threadSeq, types, ahead, keep, null, Function.identity());
    }

    /**
     * As {@link #recordBatches(long, IntPredicate, ReadAhead)} for the records of {@code kept}'s types: a section whose
     * records an earlier read left in {@code kept} is decoded from those, not inflated again. The batches are the
     * same either way. Each is turned into what {@code then} makes of it on the thread that decoded it: work on a
     * section's records (stitching its samples) runs ahead, in parallel, with its decoding. {@code then} may run on
     * several threads at once; the results come in the sections' order.
     */
    public <T> Iterator<T> keptBatches(
            long threadSeq, KeptRecords kept, ReadAhead ahead, Function<RecordBatch, T> then) {
        return batches(threadSeq, kept.types(), ahead, KeptRecords.NONE, kept, then);
    }

    /**
     * The batches of {@code types}, leaving records in {@code keep}, or taking them from {@code kept} if not null, as
     * {@code then} makes them.
     */
    private <T> Iterator<T> batches(
            long threadSeq,
            IntPredicate types,
            ReadAhead ahead,
            KeptRecords keep,
            KeptRecords kept,
            Function<RecordBatch, T> then) {
        List<Supplier<T>> jobs = new ArrayList<>();
        for (int i : recordSections(threadSeq)) {
            if (!mayHold(i, types)) continue;
            jobs.add(() -> {
                List<WireRecord> out = new ArrayList<>();
                long[] byType = new long[MASK_TYPES + 1];
                byte[] own = kept == null ? null : kept.take(i);
                byte[] payload = null;
                if (own != null) {
                    checkedRecords(i, MemorySegment.ofArray(own), types, byType, false)
                            .forEachRemaining(out::add);
                } else if (mayHold(i, types)) { // known since the jobs were made, if a read went through it meanwhile
                    payload = payload(sections.get(i));
                    decodeRecords(i, payload, types, byType).forEach(out::add);
                }
                RecordBatch batch = new RecordBatch(out, byType);
                // a section with none of the kept types (all callback records) is not even looked through
                if (payload != null && batch.count(keep.types()) > 0)
                    keep.offer(i, payload, RecordingFormat.RECORDS_PREFIX);
                return then.apply(batch);
            });
        }
        return new InOrderAhead<>(jobs, ahead);
    }

    /**
     * The indexes of the RECORDS sections of thread {@code threadSeq} in file order, or of all threads, thread by
     * thread ({@link #recordThreads()}' order): a writer may interleave threads' sections.
     */
    private List<Integer> recordSections(long threadSeq) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < sections.size(); i++) {
            SectionRef s = sections.get(i);
            if (s.kind() == SectionKind.RECORDS && (threadSeq == ALL_THREADS || s.key() == threadSeq)) out.add(i);
        }
        // List.sort is stable: each thread's sections stay in file order
        if (threadSeq == ALL_THREADS)
            out.sort((a, b) ->
                    Long.compareUnsigned(sections.get(a).key(), sections.get(b).key()));
        return out;
    }

    /** Whether section {@code i} may hold a record {@code types} accepts: unknown until it has been read through. */
    private boolean mayHold(int i, IntPredicate types) {
        long seen = recordTypes.get(i);
        if ((seen & TYPES_KNOWN) == 0) return true;
        for (long m = seen & ~TYPES_KNOWN; m != 0; m &= m - 1) {
            if (types.test(Long.numberOfTrailingZeros(m))) return true;
        }
        return false;
    }

    /** Whether the file is a profile (it has a calling-context tree) rather than a raw recording. */
    public boolean isProfile() {
        return sections.stream().anyMatch(s -> s.kind() == SectionKind.TREE);
    }

    /** Decodes a section's payload with another stage's codec. */
    @FunctionalInterface
    public interface SectionDecoder<T> {
        /** Throws {@link BadSectionException} for bytes that do not decode. */
        T decode(byte[] payload);
    }

    /**
     * The one section of {@code kind}, decoded by {@code decoder}; empty if the file has none.
     * A decoder's BadSectionException becomes a RecordingFormatException naming the file offset.
     */
    public <T> Optional<T> section(SectionKind kind, SectionDecoder<T> decoder) {
        SectionRef found = null;
        for (SectionRef s : sections) {
            if (s.kind() != kind) continue;
            if (found != null) throw RecordingFormatException.corrupt(path, s.offset(), "second " + kind + " section");
            found = s;
        }
        return found == null ? Optional.empty() : Optional.of(decode(found, decoder, 0));
    }

    /** The payload of each section of {@code kind}, in file order, with its key (the thread, for TIMELINE). */
    public void forEachSection(SectionKind kind, SectionConsumer consumer) {
        for (SectionRef s : sections) {
            if (s.kind() != kind) continue;
            int prefix = kind == SectionKind.TIMELINE ? RecordingFormat.RECORDS_PREFIX : 0;
            decode(
                    s,
                    payload -> {
                        consumer.accept(
                                s.key(), prefix == 0 ? payload : Arrays.copyOfRange(payload, prefix, payload.length));
                        return null;
                    },
                    prefix);
        }
    }

    /** Named counters (the STITCH section); empty if the file has none. */
    public Map<String, Long> counters(SectionKind kind) {
        return section(kind, payload -> {
                    try {
                        return SectionCodec.counters(payload);
                    } catch (BadPayload e) {
                        throw new BadSectionException(-1, e.getMessage());
                    }
                })
                .orElse(Map.of());
    }

    private <T> T decode(SectionRef s, SectionDecoder<T> decoder, int prefix) {
        byte[] payload = payload(s);
        try {
            return decoder.decode(payload);
        } catch (BadSectionException e) {
            // a stored payload's byte is a file offset; a compressed one's is only meaningful inflated
            long at = s.payloadOffset();
            String where = "";
            if (e.offset() >= 0 && (s.flags() & RecordingFormat.FLAG_DEFLATE) == 0) at += prefix + e.offset();
            else if (e.offset() >= 0) where = " (byte " + (prefix + e.offset()) + " of its inflated payload)";
            throw RecordingFormatException.corrupt(
                    path, at, "bad " + s.kind() + " section" + where + ": " + e.getMessage());
        }
    }

    /** Receives a section's payload (after its key prefix) and key. */
    @FunctionalInterface
    public interface SectionConsumer {
        void accept(long key, byte[] payload);
    }

    public void forEachRecord(RecordVisitor visitor) {
        records().forEach(visitor::visit);
    }

    /** The embedded image of a module, or empty when the recording does not hold it. */
    public Optional<byte[]> moduleImage(long moduleId) {
        Optional<ModuleInfo> m = module(moduleId);
        if (m.isEmpty() || m.get().image() != ImageSource.EMBEDDED) return Optional.empty();
        long length = m.get().imageLength();
        if (length > Integer.MAX_VALUE - 16)
            throw new UserError(path + ": module image of " + length + " bytes is too large to load");
        byte[] image = new byte[(int) length];
        long filled = 0;
        for (SectionRef s : sections) {
            if (s.kind() != SectionKind.MODULE_IMAGE || s.key() != moduleId) continue;
            byte[] chunk = payload(s);
            int n = chunk.length - RecordingFormat.IMAGE_PREFIX;
            if (s.imageOffset() != filled || filled + n > length) {
                throw RecordingFormatException.corrupt(
                        path,
                        s.offset(),
                        "module image chunk at image offset " + s.imageOffset() + " does not continue the " + filled
                                + " bytes before it");
            }
            System.arraycopy(chunk, RecordingFormat.IMAGE_PREFIX, image, (int) filled, n);
            filled += n;
        }
        if (filled != length) {
            throw new RecordingFormatException(
                    path,
                    -1,
                    "module " + moduleId + " image has " + filled + " of " + length + " bytes; the file is damaged");
        }
        return Optional.of(image);
    }

    @Override
    public void close() {
        closeQuietly(channel);
    }

    // ---- container ----

    private int readFileHeader() throws IOException {
        long size = channel.size();
        byte[] h = read(0, (int) Math.min(size, RecordingFormat.FILE_HEADER_SIZE));
        int magicBytes = Math.min(h.length, RecordingFormat.MAGIC.length);
        if (!Arrays.equals(h, 0, magicBytes, RecordingFormat.MAGIC, 0, magicBytes) || h.length == 0) {
            throw new RecordingFormatException(path, 0, "not an ompprof recording");
        }
        if (h.length < RecordingFormat.FILE_HEADER_SIZE) throw RecordingFormatException.truncated(path, size);
        int version = le(h).getInt(8);
        if (version > RecordingFormat.VERSION) {
            throw new RecordingFormatException(
                    path,
                    8,
                    "recording format version " + version + " is newer than this ompprof reads ("
                            + RecordingFormat.VERSION + "); update ompprof");
        }
        if (version < 1) throw RecordingFormatException.corrupt(path, 8, "format version " + version);
        if (le(h).getInt(12) != 0)
            throw RecordingFormatException.corrupt(path, 12, "reserved header bytes are not zero");
        return version;
    }

    /** Reads for {@link #checksum} while the sections are scanned (on the opening thread alone). */
    private ByteBuffer checksumBuffer;

    private List<SectionRef> scanSections() throws IOException {
        long size = channel.size();
        long pos = RecordingFormat.FILE_HEADER_SIZE;
        List<SectionRef> out = new ArrayList<>();
        while (true) {
            if (size - pos < RecordingFormat.SECTION_HEADER_SIZE) throw RecordingFormatException.truncated(path, size);
            ByteBuffer h = le(read(pos, RecordingFormat.SECTION_HEADER_SIZE));
            SectionRef s = sectionHeader(h, pos, size);
            if (s.kind() == SectionKind.END) {
                checkEnd(s, out.size(), size);
                return out;
            }
            out.add(withKey(s));
            pos = s.payloadOffset() + s.storedLength();
        }
    }

    /** Bounds and checksum of the section at {@code pos}. */
    private SectionRef sectionHeader(ByteBuffer h, long pos, long fileSize) throws IOException {
        int code = h.getInt(0);
        int flags = h.getInt(4);
        long raw = h.getLong(8);
        long stored = h.getLong(16);
        int crc = h.getInt(24);
        SectionKind kind = SectionKind.of(code);
        if (kind == null)
            throw RecordingFormatException.corrupt(path, pos, "unknown section kind " + Integer.toUnsignedString(code));
        if ((flags & ~RecordingFormat.KNOWN_FLAGS) != 0)
            throw RecordingFormatException.corrupt(path, pos, "unknown flags " + Integer.toHexString(flags));
        if ((flags & RecordingFormat.FLAG_SAMPLES_ONLY) != 0 && kind != SectionKind.RECORDS)
            throw RecordingFormatException.corrupt(path, pos, "a " + kind + " section marked as holding samples");
        if (raw < 0 || raw > RecordingFormat.MAX_RAW || stored < 0)
            throw RecordingFormatException.corrupt(path, pos, "impossible length " + raw);
        boolean deflated = (flags & RecordingFormat.FLAG_DEFLATE) != 0;
        if (!deflated && raw != stored)
            throw RecordingFormatException.corrupt(path, pos, "stored and raw lengths differ");
        if (deflated && raw > stored * RecordingFormat.MAX_DEFLATE_RATIO + 64)
            throw RecordingFormatException.corrupt(path, pos, "impossible compression ratio");
        long payload = pos + RecordingFormat.SECTION_HEADER_SIZE;
        if (stored > fileSize - payload) {
            if (!endsWithEndSection(fileSize)) throw RecordingFormatException.truncated(path, fileSize);
            throw RecordingFormatException.corrupt(path, pos, "length " + stored + " runs past the end section");
        }
        if (checksum(payload, stored) != crc) throw RecordingFormatException.corrupt(path, pos, "checksum mismatch");
        return new SectionRef(kind, pos, flags, raw, stored, -1, -1);
    }

    /**
     * Whether the file's last bytes are a whole end section: then a section that runs past them has a damaged length,
     * and the file is not cut short.
     */
    private boolean endsWithEndSection(long fileSize) throws IOException {
        long at = fileSize - RecordingFormat.SECTION_HEADER_SIZE - 4;
        if (at < RecordingFormat.FILE_HEADER_SIZE) return false;
        ByteBuffer h = le(read(at, RecordingFormat.SECTION_HEADER_SIZE));
        return SectionKind.of(h.getInt(0)) == SectionKind.END
                && h.getInt(4) == 0
                && h.getLong(8) == 4
                && h.getLong(16) == 4
                && checksum(at + RecordingFormat.SECTION_HEADER_SIZE, 4) == h.getInt(24);
    }

    private void checkEnd(SectionRef end, int sectionCount, long fileSize) throws IOException {
        if (end.rawLength() != 4 || end.flags() != 0)
            throw RecordingFormatException.corrupt(path, end.offset(), "bad end section");
        int count = le(read(end.payloadOffset(), 4)).getInt(0);
        if (count != sectionCount) {
            throw RecordingFormatException.corrupt(
                    path, end.offset(), "end section counts " + count + " sections, found " + sectionCount);
        }
        long after = end.payloadOffset() + 4;
        if (after != fileSize)
            throw RecordingFormatException.corrupt(path, after, (fileSize - after) + " bytes after the end section");
    }

    /** Fills in the thread of a RECORDS section and the module/offset of a MODULE_IMAGE section. */
    private SectionRef withKey(SectionRef s) throws IOException {
        int prefix = switch (s.kind()) {
            case RECORDS, TIMELINE -> RecordingFormat.RECORDS_PREFIX;
            case MODULE_IMAGE -> RecordingFormat.IMAGE_PREFIX;
            default -> 0;
        };
        if (prefix == 0) return s;
        if (s.rawLength() < prefix)
            throw RecordingFormatException.corrupt(path, s.offset(), "section shorter than its prefix");
        ByteBuffer p = le(inflate(s, prefix));
        return s.kind() != SectionKind.MODULE_IMAGE
                ? new SectionRef(
                        s.kind(),
                        s.offset(),
                        s.flags(),
                        s.rawLength(),
                        s.storedLength(),
                        Integer.toUnsignedLong(p.getInt(0)),
                        -1)
                : new SectionRef(
                        s.kind(), s.offset(), s.flags(), s.rawLength(), s.storedLength(), p.getLong(0), p.getLong(8));
    }

    @FunctionalInterface
    private interface TableDecoder<T> {
        T decode(byte[] payload) throws BadPayload;
    }

    /** The one section of this kind, decoded. */
    private <T> T table(SectionKind kind, TableDecoder<T> decoder) throws IOException {
        SectionRef found = null;
        for (SectionRef s : sections) {
            if (s.kind() != kind) continue;
            if (found != null) throw RecordingFormatException.corrupt(path, s.offset(), "second " + kind + " section");
            found = s;
        }
        if (found == null) {
            // section headers carry no checksum of their own: a damaged kind field shows up here
            long first = RecordingFormat.FILE_HEADER_SIZE;
            throw new RecordingFormatException(
                    path,
                    first,
                    "no " + kind + " section among the " + sections.size() + " from offset " + first
                            + " (a damaged section header?); the file is damaged");
        }
        try {
            return decoder.decode(payload(found));
        } catch (BadPayload e) {
            throw RecordingFormatException.corrupt(path, found.offset(), "bad " + kind + " table: " + e.getMessage());
        }
    }

    /**
     * The records of section {@code index} that {@code types} accepts, decoded lazily, one at a time; the types
     * seen on the way are remembered once the section has been read through.
     */
    private Stream<WireRecord> decodeRecords(int index, IntPredicate types) {
        return decodeRecords(index, types, null);
    }

    /** As {@link #decodeRecords(int, IntPredicate)}, counting the section's records by type into {@code byType}. */
    private Stream<WireRecord> decodeRecords(int index, IntPredicate types, long[] byType) {
        if (!mayHold(index, types)) return Stream.empty();
        return decodeRecords(index, payload(sections.get(index)), types, byType);
    }

    /** As {@link #decodeRecords(int, IntPredicate, long[])}, from the section's {@code payload}, inflated. */
    private Stream<WireRecord> decodeRecords(int index, byte[] payload, IntPredicate types, long[] byType) {
        MemorySegment records = MemorySegment.ofArray(payload).asSlice(RecordingFormat.RECORDS_PREFIX);
        Iterator<WireRecord> checked = checkedRecords(index, records, types, byType, true);
        return StreamSupport.stream(
                Spliterators.spliteratorUnknownSize(checked, Spliterator.ORDERED | Spliterator.NONNULL), false);
    }

    /**
     * Section {@code index}'s {@code records} (its payload's, or those of them an earlier read kept) of {@code types},
     * counted by type into {@code byType} (if not null); a bad record throws {@link RecordingFormatException} naming
     * the section. With {@code allOfThem}, the records are the section's all, and the types found among them are
     * noted once they are read (later reads skip a section that holds none of theirs).
     */
    private Iterator<WireRecord> checkedRecords(
            int index, MemorySegment records, IntPredicate types, long[] byType, boolean allOfThem) {
        SectionRef s = sections.get(index);
        long[] seen = {0};
        boolean samplesOnly = samplesOnly(s);
        IntPredicate noting = type -> {
            // a read of other types has skipped this section on its mark's word: a false mark lost records
            if (samplesOnly && type != Wire.REC_SAMPLE)
                throw RecordingFormatException.corrupt(
                        path, s.offset(), "a record of type " + type + " in a section marked as holding samples alone");
            seen[0] |= type < MASK_TYPES ? 1L << type : ~TYPES_KNOWN;
            if (byType != null) byType[Math.min(type, MASK_TYPES)]++;
            return types.test(type);
        };
        Iterator<WireRecord> decoded = RecordDecoder.iterate(records, true, noting); // the bytes are ours alone
        return new Iterator<>() {
            /** The decoder reads ahead here, so this is where a bad record shows. */
            @Override
            public boolean hasNext() {
                boolean more;
                try {
                    more = decoded.hasNext();
                } catch (MalformedRecordException e) {
                    throw RecordingFormatException.corrupt(path, s.offset(), "bad record: " + e.getMessage());
                }
                if (!more && allOfThem) recordTypes.set(index, seen[0] | TYPES_KNOWN);
                return more;
            }

            @Override
            public WireRecord next() {
                if (!hasNext()) throw new NoSuchElementException();
                return decoded.next();
            }
        };
    }

    /** The section's whole raw payload. */
    private byte[] payload(SectionRef s) {
        try {
            return inflate(s, (int) s.rawLength());
        } catch (IOException e) {
            throw new UserError("cannot read " + path + ": " + e.getMessage());
        }
    }

    /** The first {@code want} raw bytes of a section (all of them when want is its raw length). */
    private byte[] inflate(SectionRef s, int want) throws IOException {
        // a stored section's first bytes are read alone: opening reads a section's key so, for every section
        if ((s.flags() & RecordingFormat.FLAG_DEFLATE) == 0) return read(s.payloadOffset(), want);
        byte[] stored = read(s.payloadOffset(), Math.toIntExact(s.storedLength()));
        Inflater inf = new Inflater();
        try {
            inf.setInput(stored);
            byte[] out = new byte[want];
            int n = 0;
            while (n < want) {
                int k = inf.inflate(out, n, want - n);
                if (k == 0) break; // finished early, input exhausted or a dictionary wanted: all corrupt here
                n += k;
            }
            if (n != want || (want == s.rawLength() && !endsCleanly(inf))) {
                throw RecordingFormatException.corrupt(
                        path, s.offset(), "compressed data does not inflate to " + s.rawLength() + " bytes");
            }
            return out;
        } catch (DataFormatException e) {
            throw RecordingFormatException.corrupt(path, s.offset(), "bad compressed data");
        } finally {
            inf.end();
        }
    }

    /** After the expected bytes, the stream must end with no output and no input left over. */
    private static boolean endsCleanly(Inflater inf) throws DataFormatException {
        if (!inf.finished() && (inf.inflate(new byte[1]) > 0 || !inf.finished())) return false;
        return inf.getRemaining() == 0;
    }

    private int checksum(long offset, long length) throws IOException {
        CRC32C crc = new CRC32C();
        // one direct buffer for the whole scan: the file's every byte passes through it, with no copy on the way
        if (checksumBuffer == null) checksumBuffer = ByteBuffer.allocateDirect(1 << 20);
        ByteBuffer buf = checksumBuffer;
        long done = 0;
        while (done < length) {
            buf.clear().limit((int) Math.min(buf.capacity(), length - done));
            readFully(buf, offset + done);
            buf.flip();
            crc.update(buf);
            done += buf.limit();
        }
        return (int) crc.getValue();
    }

    private byte[] read(long offset, int length) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(length);
        readFully(buf, offset);
        return buf.array();
    }

    private void readFully(ByteBuffer buf, long offset) throws IOException {
        long at = offset;
        while (buf.hasRemaining()) {
            int n = channel.read(buf, at);
            if (n < 0) throw RecordingFormatException.truncated(path, at);
            at += n;
        }
    }

    private static ByteBuffer le(byte[] b) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static void closeQuietly(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }
}
