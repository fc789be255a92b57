package org.ompprof.sampler.ring;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.ompprof.sampler.record.Context;
import org.ompprof.sampler.record.ModuleLoad;
import org.ompprof.sampler.record.RecordEncoder;
import org.ompprof.sampler.record.SampleRecord;
import org.ompprof.sampler.record.SyncRegion;
import org.ompprof.sampler.record.ThreadBegin;
import org.ompprof.sampler.record.ThreadEnd;
import org.ompprof.sampler.record.WireRecord;
import org.ompprof.sampler.wire.Wire;
import org.ompprof.sampler.wire.Wire.SlotHeader;

/** A Java stand-in for the agent: claims slots, writes records through the rings, ends threads. */
public final class TestAgent {
    private final Region region;

    public TestAgent(Region region) {
        this.region = region;
    }

    /**
     * One program thread: thread_begin, the modules, {@code samples} samples (alternately
     * work_parallel and barrier) with a sync_region every tenth, thread_end, then ENDED. Waits
     * for room in full rings, as a patient agent would, so that nothing is dropped.
     */
    public void runThread(int slot, int seq, int samples, List<ModuleLoad> modules) {
        runThread(slot, seq, samples, modules, 0);
    }

    /**
     * As above; with {@code paddedEvery} > 0, every that-many-th sync_region is written 8 bytes longer than its
     * contents: framed well enough for the drainer, not a record the recording may hold.
     */
    public void runThread(int slot, int seq, int samples, List<ModuleLoad> modules, int paddedEvery) {
        MemorySegment s = region.segment();
        long base = region.layout().slotOffset(slot);
        RingWriter.claim(region, slot, seq, 1000 + seq);
        RingWriter sampleRing = RingWriter.sampleRing(region, slot);
        RingWriter eventRing = RingWriter.eventRing(region, slot);
        long t = 1_000_000L * seq;
        put(eventRing, new ThreadBegin(seq, t++, 1000 + seq, 2, 0x7000, 0x9000, slot));
        for (ModuleLoad m : modules) put(eventRing, withThread(m, seq, t++));
        for (int i = 0; i < samples; i++) {
            put(sampleRing, sample(seq, t++, i % 2 == 0 ? 1 : 0x11, i));
            if (i % 10 == 0) {
                SyncRegion r = new SyncRegion(seq, t++, 5, 6, 0x401000, 9, 1, 0);
                if (paddedEvery > 0 && (i / 10) % paddedEvery == 0) put(eventRing, padded(RecordEncoder.encode(r)));
                else put(eventRing, r);
            }
        }
        put(eventRing, new ThreadEnd(seq, t));
        Atomics.setReleaseInt(s, base + SlotHeader.STATE, Wire.SLOT_ENDED);
    }

    /** Writes {@code r} into {@code ring}, waiting for room. */
    public static void put(RingWriter ring, WireRecord r) {
        put(ring, RecordEncoder.encode(r));
    }

    /** The slot's thread has ended: the drainer hands the slot back once it has read it. */
    public static void end(Region region, int slot) {
        Atomics.setReleaseInt(region.segment(), region.layout().slotOffset(slot) + SlotHeader.STATE, Wire.SLOT_ENDED);
    }

    private static void put(RingWriter ring, byte[] bytes) {
        while (!ring.write(bytes)) LockSupport.parkNanos(50_000); // two cores: let the drainer run
    }

    /** The record 8 bytes longer, its size saying so. */
    private static byte[] padded(byte[] record) {
        byte[] out = java.util.Arrays.copyOf(record, record.length + 8);
        MemorySegment.ofArray(out).set(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, 0, out.length);
        return out;
    }

    /** A whole sample of thread {@code seq}: its stack and rip vary with {@code i}. */
    public static SampleRecord sample(int seq, long time, int state, int i) {
        byte[] stack = new byte[8 * (i % 40)];
        return new SampleRecord(
                seq,
                time,
                1_000_000,
                1000 + seq,
                0,
                state,
                Wire.SAMPLE_OMPT_READY,
                0,
                List.of(),
                List.of(),
                new Context(0x401000 + i, 0x7ffc0000, 0, 0, MemorySegment.ofArray(stack)));
    }

    private static ModuleLoad withThread(ModuleLoad m, int seq, long time) {
        return new ModuleLoad(
                seq,
                time,
                m.moduleId(),
                m.loadBias(),
                m.ehFrameHdr(),
                m.dev(),
                m.ino(),
                m.fileSize(),
                m.mtimeNs(),
                m.flags(),
                m.fd(),
                m.segments(),
                m.path(),
                m.buildId(),
                m.image());
    }

    /** The number of an fd of this process open on {@code file}. */
    public static int fdOf(Path file) throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    if (Files.readSymbolicLink(fd).equals(file))
                        return Integer.parseInt(fd.getFileName().toString());
                } catch (IOException ignored) {
                    // closed meanwhile
                }
            }
        }
        throw new IllegalStateException("no fd open on " + file);
    }

    /** dev, ino, size, mtime in ns, as stat(1) reports them (the agent's view, independent of Java). */
    public static long[] stat(Path file) {
        try {
            Process p = new ProcessBuilder("stat", "-L", "-c", "%d %i %s %.9Y", file.toString()).start();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) throw new IllegalStateException("stat " + file);
            String[] f = out.split(" ");
            long mtime = new BigDecimal(f[3]).movePointRight(9).longValueExact();
            return new long[] {Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]), mtime};
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
