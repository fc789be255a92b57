package org.ompprof.sampler.collect;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.ompprof.sampler.record.Context;
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
 * Runs the drain path (ring reader, validation, collector, spool) over synthetic records before
 * the program starts. On a small machine the program's threads own the cores once it runs; the
 * JIT compiling the drainer then steals time from them, so it should happen here instead.
 */
public final class DrainWarmup {
    private static final int ROUNDS = 250;
    private static final int SAMPLES_PER_ROUND = 8;
    /** Region-heavy programs write callback records by the hundred between two drains. */
    private static final int EVENTS_PER_ROUND = 200;

    private DrainWarmup() {}

    /** Drains 2,000 synthetic samples and 100,000 callback records through a throwaway spool in {@code dir}. */
    public static void run(Path dir) throws IOException {
        RegionLayout layout = new RegionLayout(2, 1 << 20, 1 << 16, Wire.MODE_WALL, 1000, 4096);
        byte[] sample = RecordEncoder.encode(sample());
        byte[] sync = RecordEncoder.encode(new SyncRegion(1, 2, 1, 1, 0x401000, 9, 1, 1));
        byte[] mutex = RecordEncoder.encode(new MutexEvent(1, 3, 0x1000, 0x401000, Wire.MUTEX_ACQUIRE, 5, 0, 0));
        byte[] tasks = RecordEncoder.encode(taskBatch());
        try (Region region = Region.inMemory(layout);
                Spool spool = Spool.create(dir, ".ompprof-warmup-")) {
            spool.quiet(); // its work shows in the JDK's CPU samples, not in the ompprof.* events of the run
            RunCollector collector = new RunCollector(spool, () -> -1, n -> {});
            Drainer drainer = new Drainer(region, collector);
            drainer.quiet();
            RingWriter samples = RingWriter.sampleRing(region, 0);
            RingWriter events = RingWriter.eventRing(region, 0);
            for (int round = 0; round < ROUNDS; round++) {
                for (int i = 0; i < SAMPLES_PER_ROUND; i++) samples.write(sample);
                for (int i = 0; i < EVENTS_PER_ROUND / 2; i++) {
                    events.write(sync);
                    events.write(mutex);
                }
                events.write(tasks);
                drainer.drainOnce();
            }
        }
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
