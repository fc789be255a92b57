package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.Reference;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.ompprof.sampler.omp.TaskFlags;
import org.ompprof.sampler.record.SampleRecord;
import org.ompprof.sampler.record.TaskCreate;
import org.ompprof.sampler.record.TaskLevel;
import org.ompprof.sampler.record.WireRecord;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.unwinder.image.ModuleImages;
import org.ompprof.unwinder.stack.StackUnwinder;

/**
 * What a task-heavy program costs the stitcher: tasks.c's real creation records replayed as
 * many distinct tasks. Prints time and memory per task (a measurement, not a goal: nothing
 * here is timed against a limit); asserts only that identical creation paths are shared.
 */
class TaskCostTest {
    private static final int TASKS = 200_000;
    private static final long FIRST_ID = 1L << 40;

    @Test
    void perTaskCost() {
        try (Recording r = Recording.open(StitchPrograms.recording("tasks", Map.of()))) {
            StitchCounters.Tally tally = new StitchCounters.Tally();
            RecordingModules modules = new RecordingModules(r, new ModuleImages());
            Interner interner = new Interner();
            Creations index = new Creations(new SegmentMaker(
                    modules, new ContextUnwinder(new StackUnwinder(modules.space())), interner, tally));
            List<TaskCreate> real = index(r, index);
            assertTrue(!real.isEmpty(), "no task was recorded");

            replay(index, real, FIRST_ID, TASKS / 4); // warm-up: JIT and CFI row caches
            long before = usedHeap();
            long t0 = System.nanoTime();
            replay(index, real, 2 * FIRST_ID, TASKS);
            long t1 = System.nanoTime();
            long afterIndex = usedHeap();
            long t1b = System.nanoTime();
            ContextResolver contexts = new ContextResolver(index, interner, tally, site -> null);
            ContextNode first = contexts.ofTask(level(2 * FIRST_ID));
            for (int i = 1; i < TASKS; i++) assertSame(first, contexts.ofTask(level(2 * FIRST_ID + i)));
            long t2 = System.nanoTime();
            long afterResolve = usedHeap();

            System.out.printf(
                    "stitch cost per task (%,d tasks, creation snapshot %,d bytes): index %.2f us and %.0f bytes; "
                            + "resolve %.2f us and %.0f bytes; %d distinct segments, %d contexts%n",
                    TASKS,
                    real.getFirst().context().stackLength(),
                    (t1 - t0) / 1e3 / TASKS,
                    (afterIndex - before) / (double) TASKS,
                    (t2 - t1b) / 1e3 / TASKS,
                    (afterResolve - afterIndex) / (double) TASKS,
                    interner.distinctSegments(),
                    interner.distinctContexts());
            assertEquals(2, interner.distinctSegments(), "one region segment and one task segment");
            // Keep everything measured reachable to the end: a compiled method may drop dead locals early.
            Reference.reachabilityFence(index);
            Reference.reachabilityFence(contexts);
        }
    }

    /** Indexes the recording's callback records, keeping only its task creations. */
    private static List<TaskCreate> index(Recording r, Creations index) {
        List<WireRecord> events =
                r.records().filter(x -> !(x instanceof SampleRecord)).toList();
        events.forEach(index::add);
        return events.stream()
                .filter(TaskCreate.class::isInstance)
                .map(TaskCreate.class::cast)
                .toList();
    }

    /** Real creation records under new ids, as if the program had created that many tasks. */
    private static void replay(Creations index, List<TaskCreate> real, long firstId, int count) {
        for (int i = 0; i < count; i++) {
            TaskCreate t = real.get(i % real.size());
            index.add(new TaskCreate(
                    t.threadSeq(),
                    t.timeNs(),
                    t.parentTaskId(),
                    firstId + i,
                    t.codeptrRa(),
                    t.encExitFrame(),
                    t.encEnterFrame(),
                    t.flags(),
                    t.hasDependences(),
                    t.shape(),
                    t.context()));
        }
    }

    private static TaskLevel level(long taskId) {
        return new TaskLevel(1, 0, 0, 0, TaskFlags.EXPLICIT, 0, taskId, 0, 2);
    }

    /** After collections until the figure settles (a few GCs are needed to get there). */
    private static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        long last = Long.MAX_VALUE;
        for (int i = 0; i < 10; i++) {
            System.gc();
            long used = rt.totalMemory() - rt.freeMemory();
            if (Math.abs(last - used) < 64 * 1024) return used;
            last = used;
        }
        return last;
    }
}
