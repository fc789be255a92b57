package org.ompprof.sampler.collect;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.ompprof.sampler.record.Context;
import org.ompprof.sampler.record.ModuleLoad;
import org.ompprof.sampler.record.ModuleSegment;
import org.ompprof.sampler.record.MutexEvent;
import org.ompprof.sampler.record.ParallelLevel;
import org.ompprof.sampler.record.RecordEncoder;
import org.ompprof.sampler.record.SampleRecord;
import org.ompprof.sampler.record.SyncRegion;
import org.ompprof.sampler.record.TaskBatch;
import org.ompprof.sampler.record.TaskLevel;
import org.ompprof.sampler.ring.Region;
import org.ompprof.sampler.ring.RegionLayout;
import org.ompprof.sampler.ring.RingWriter;
import org.ompprof.sampler.wire.Wire;

/**
 * Runs the drain path (ring reader, validation, collector, spool, module capture) over synthetic
 * records before the program starts. On a small machine the program's threads own the cores
 * once it runs; the JIT compiling the drainer, or the interpreter running its first module
 * captures, then steal time from them, so it should happen here instead.
 */
public final class DrainWarmup {
    private static final int ROUNDS = 250;
    private static final int SAMPLES_PER_ROUND = 8;
    /** Rounds that load modules: a program's start captures a few. */
    private static final int MODULE_ROUNDS = 5;
    /** Region-heavy programs write callback records by the hundred between two drains. */
    private static final int EVENTS_PER_ROUND = 200;

    private final Thread thread;

    private DrainWarmup(Thread thread) {
        this.thread = thread;
    }

    /**
     * Starts {@link #run} in the temporary directory on a thread of its own: the recorder's other preparations
     * (the FFM linker's first calls, the plan, the shared-memory region) take the other core meanwhile, and the
     * program starts sooner. A warm-up that fails only leaves the JIT its work for later; the recording goes on.
     */
    public static DrainWarmup start() {
        Path dir = Path.of(System.getProperty("java.io.tmpdir"));
        Thread t = Thread.ofPlatform().name("ompprof-warmup").daemon().start(() -> {
            try {
                run(dir);
            } catch (IOException | RuntimeException e) {
                // nothing to tell: the recording itself reports what it cannot write
            }
        });
        return new DrainWarmup(t);
    }

    /** Waits for the warm-up to end: before the program starts, and before the JVM may exit (its files). */
    public void await() throws InterruptedException {
        thread.join();
    }

    /**
     * Drains 2,000 synthetic samples, 100,000 callback records and a few module loads (one
     * copied, one referenced) through a throwaway spool in {@code dir}.
     */
    public static void run(Path dir) throws IOException {
        RegionLayout layout = new RegionLayout(2, 1 << 20, 1 << 16, Wire.MODE_WALL, 1000, 4096);
        byte[] sample = RecordEncoder.encode(sample());
        byte[] sync = RecordEncoder.encode(new SyncRegion(1, 2, 1, 1, 0x401000, 9, 1, 1));
        byte[] mutex = RecordEncoder.encode(new MutexEvent(1, 3, 0x1000, 0x401000, Wire.MUTEX_ACQUIRE, 5, 0, 0));
        byte[] tasks = RecordEncoder.encode(taskBatch());
        Path library = Files.createTempFile(dir, ".ompprof-warmup-", ".so");
        try (Region region = Region.inMemory(layout);
                Spool spool = Spool.create(dir, ".ompprof-warmup-")) {
            Files.write(library, new byte[4096]);
            Path system = Path.of(ProcessHandle.current().info().command().orElse("/bin/sh"));
            byte[][] modules = {RecordEncoder.encode(module(1, library)), RecordEncoder.encode(module(2, system))};
            spool.quiet(); // its work shows in the JDK's CPU samples, not in the ompprof.* events of the run
            RunCollector collector = new RunCollector(spool, () -> -1, n -> {});
            Drainer drainer = new Drainer(region, collector);
            drainer.quiet();
            RingWriter.claim(region, 0, 1, 1);
            RingWriter samples = RingWriter.sampleRing(region, 0);
            RingWriter events = RingWriter.eventRing(region, 0);
            // a round's samples and sync records go in as two blocks: one by one, writing cost more than draining
            byte[] sampleBlock = block(SAMPLES_PER_ROUND, sample);
            byte[] eventBlock = block(EVENTS_PER_ROUND / 2, sync, mutex);
            for (int round = 0; round < ROUNDS; round++) {
                if (round % (ROUNDS / MODULE_ROUNDS) == 0) for (byte[] m : modules) events.write(m);
                samples.write(sampleBlock, SAMPLES_PER_ROUND);
                events.write(eventBlock, EVENTS_PER_ROUND);
                events.write(tasks);
                drainer.drainOnce();
            }
        } finally {
            Files.deleteIfExists(library);
        }
    }

    /** {@code records} laid end to end, {@code times} over. */
    private static byte[] block(int times, byte[]... records) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < times; i++) for (byte[] r : records) out.writeBytes(r);
        return out.toByteArray();
    }

    /** A module load record for {@code file} as the agent would write it. */
    private static ModuleLoad module(long id, Path file) throws IOException {
        Map<String, Object> a = Files.readAttributes(file, "unix:dev,ino,size,lastModifiedTime");
        return new ModuleLoad(
                1,
                1,
                id,
                0x7f00_0000_0000L + (id << 24),
                0,
                (long) a.get("dev"),
                (long) a.get("ino"),
                (long) a.get("size"),
                ((FileTime) a.get("lastModifiedTime")).to(TimeUnit.NANOSECONDS),
                0,
                -1,
                List.of(new ModuleSegment(0, 0x1000, 0, 0x1000, 5)),
                file.toString(),
                "",
                MemorySegment.ofArray(new byte[0]));
    }

    /** A recursion's creations: two sites alternating, as task-heavy programs send from their first moments. */
    private static TaskBatch taskBatch() {
        List<TaskBatch.Entry> entries = new ArrayList<>();
        for (int i = 0; i < Wire.MAX_TASK_BATCH; i++)
            entries.add(new TaskBatch.Entry(100 + 2L * i, 50 + i / 2, 0x1000 + (i & 1)));
        return new TaskBatch(1, 4, entries, true);
    }

    private static SampleRecord sample() {
        Context context = new Context(0x401000, 0x7ffd0000, 0x7ffd0100, 0, MemorySegment.ofArray(new byte[256]));
        List<TaskLevel> tasks = List.of(new TaskLevel(0x7ffd0200, 0x7ffd0300, 0, 0, 2, 0, 1, 1, 2));
        return new SampleRecord(
                1,
                1,
                1_000_000,
                1,
                0,
                1,
                Wire.SAMPLE_OMPT_READY,
                0,
                tasks,
                List.of(new ParallelLevel(1, 2, 2)),
                context);
    }
}
