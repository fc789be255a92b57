package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.ompprof.sampler.record.ImplicitTask;
import org.ompprof.sampler.record.TaskBatch;
import org.ompprof.sampler.record.TaskCreate;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.Recording;

/**
 * (f) fib.c: recursive tasks, 318,000 of them, created at two sites in one recursive context.
 * The agent sends a creation's stack once per shape; the rest share it. Each sample in fib
 * must lie under main;run;run.omp_outlined;fib and then only whole task levels
 * (.omp_task_entry.*[;.omp_outlined.*];fib), with no runtime frame inside the path.
 */
class FibStitchTest {
    static Stitched run;
    static long eventsDropped;
    static long eventRingPeak;
    static Metadata metadata;

    @BeforeAll
    static void record() {
        Path recording = StitchPrograms.recording("fib", Map.of());
        run = Stitched.of(recording);
        try (Recording r = Recording.open(recording)) {
            eventsDropped = r.stats().eventsDropped();
            eventRingPeak = r.stats().eventRingPeak();
            metadata = r.metadata();
        }
    }

    /**
     * Wall mode views every task a thread switches to (for the wall sampler, should the task block). After the
     * runtime's first answers agree on where it keeps a task's frame (by the task's data), the agent makes them from
     * the tasks' data: of 318,000 tasks' starts, the runtime is asked about one in 1,024 (and the first 16).
     */
    @Test
    void tasksAreViewedFromTheirData() {
        assertEquals("wall", metadata.get(Metadata.MODE, ""));
        assertEquals("found", metadata.get(Metadata.TASK_FRAME_LAYOUT, ""));
        long asked = metadata.getLong(Metadata.TASK_VIEWS_ASKED, -1);
        assertTrue(asked >= 16 && asked < 318_000 / 500, "views asked of the runtime: " + asked);
    }

    /**
     * 318,000 creations in a fraction of a second: packed (about 3 bytes a task) they stay well
     * inside the event rings even when the drainer is slow to start; a lost batch would leave
     * its tasks' samples under an unknown context.
     */
    @Test
    void everyCreationReachesTheRecording() {
        assertEquals(
                0,
                eventsDropped,
                "callback records lost to full event rings (at most " + eventRingPeak + " bytes waiting)");
        assertTrue(eventRingPeak > 0, "the drainer measured how full the rings came");
    }

    /**
     * The region's context, then whole task levels of the recursion, each ending in fib; the
     * leaf is fib or the runtime entry fib called (task allocation, taskwait: fib itself does
     * little). Outlined bodies appear or not with the optimization level, so they are optional.
     */
    private static boolean recursionPath(Named n) {
        List<String> names = n.userNames();
        if (n.inRuntime().subList(0, names.size() - 1).contains(true)) return false;
        if (n.inRuntime().get(names.size() - 1)) names = names.subList(0, names.size() - 1);
        if (names.size() < 4 || !names.subList(0, 3).equals(List.of("main", "run", "run.omp_outlined"))) return false;
        int i = 3;
        if (names.get(i).equals("run.omp_outlined_debug__")) i++;
        if (i >= names.size() || !names.get(i++).equals("fib")) return false;
        while (i < names.size()) {
            if (!names.get(i++).startsWith(".omp_task_entry.")) return false;
            if (i < names.size() && names.get(i).startsWith(".omp_outlined.")) i++;
            if (i == names.size()) return true; // sampled in the task's entry, before it called fib
            if (!names.get(i++).equals("fib")) return false;
        }
        return true;
    }

    @Test
    void samplesInFibAreUnderTheRecursionThatCreatedThem() {
        // in fib's code or a call it made; samples between tasks (<omp runtime>) are not in fib
        List<Stitched.Pair> inFib = run.select(s -> true).stream()
                .filter(p -> p.stitched().userNames().contains("fib")
                        && !p.stitched().userNames().getLast().startsWith("<omp"))
                .toList();
        Expect.mostly(
                "samples in fib", inFib, 100, n -> n.sample().kind() == StitchedSample.Kind.EXACT && recursionPath(n));
    }

    /** Two creation sites, recursing: a handful of shapes carry a stack, the other 318,000 come in batches. */
    @Test
    void creationStacksAreSentOncePerShape() {
        List<TaskCreate> full = run.events(TaskCreate.class);
        List<TaskBatch> batches = run.events(TaskBatch.class);
        long batched = batches.stream().mapToLong(b -> b.entries().size()).sum();
        assertTrue(batches.stream().allMatch(TaskBatch::packed), "the agent packs its batches");
        long shapes = full.stream().map(TaskCreate::shape).distinct().count();
        assertTrue(batched > 300_000, batched + " task creations batched");
        assertTrue(full.size() < 1000 && shapes < 200, full.size() + " creations with a stack, " + shapes + " shapes");
        Expect.consistent(run);
    }

    /**
     * The single construct's implicit task creates the first two tasks: its record, which the agent
     * writes only for an implicit task something refers to, must be there, or the recursion's
     * context would end at an unknown region. Every creator is a created task or a written implicit task.
     */
    @Test
    void everyCreatorIsKnown() {
        Set<Long> created = new HashSet<>(), creators = new HashSet<>();
        run.events(TaskCreate.class).forEach(t -> {
            created.add(t.taskId());
            creators.add(t.parentTaskId());
        });
        run.events(TaskBatch.class)
                .forEach(b -> b.entries().forEach(e -> {
                    created.add(e.taskId());
                    creators.add(e.parentTaskId());
                }));
        Set<Long> implicit = new HashSet<>();
        run.events(ImplicitTask.class).forEach(t -> implicit.add(t.taskId()));
        creators.removeAll(created);
        assertFalse(creators.isEmpty(), "the first tasks' creator is an implicit task");
        creators.removeAll(implicit);
        assertEquals(Set.of(), creators, "creators with no record of their own");
    }
}
