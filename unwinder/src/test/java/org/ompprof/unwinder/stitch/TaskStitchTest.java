package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.ompprof.sampler.record.SampleRecord;
import org.ompprof.sampler.record.TaskBatch;
import org.ompprof.sampler.record.TaskCreate;

/**
 * (c) tasks.c: explicit tasks created by producer() in a single region. Their bodies, on
 * whichever thread runs them, belong under the context that created them.
 */
class TaskStitchTest {
    private static final int WORK_PARALLEL = 0x1, TASK_EXPLICIT = 4;
    static Stitched run;
    static Set<Long> created;

    @BeforeAll
    static void record() {
        run = Stitched.of(StitchPrograms.recording("tasks", java.util.Map.of()));
        created = run.events(TaskCreate.class).stream().map(TaskCreate::taskId).collect(Collectors.toSet());
        run.events(TaskBatch.class)
                .forEach(b -> b.entries().forEach(e -> created.add(e.taskId()))); // later ones of a known shape
    }

    private static boolean inTask(SampleRecord s) {
        return s.state() == WORK_PARALLEL
                && !s.taskLevels().isEmpty()
                && (s.taskLevels().getFirst().taskFlags() & TASK_EXPLICIT) != 0;
    }

    @Test
    void taskBodiesAreUnderTheirCreator() {
        List<Stitched.Pair> bodies = run.select(
                s -> inTask(s) && created.contains(s.taskLevels().getFirst().taskId()));
        Expect.mostly(
                "task bodies",
                bodies,
                100,
                n -> n.sample().kind() == StitchedSample.Kind.EXACT
                        && n.userNames()
                                .equals(List.of(
                                        "main", "run", "run.omp_outlined", "producer", ".omp_task_entry.", "task_body"))
                        && !n.anyRuntimeFrame());
        assertEquals(2, bodies.stream().map(p -> p.raw().threadSeq()).distinct().count(), "tasks ran on both threads");
    }

    /** The agent drops records when its ring is full: a task whose creation is lost is marked, never guessed. */
    @Test
    void aTaskWithoutCreationRecordIsMarkedUnknown() {
        List<Stitched.Pair> orphans = run.select(
                s -> inTask(s) && !created.contains(s.taskLevels().getFirst().taskId()));
        Expect.all(
                "tasks without a creation record",
                orphans,
                n -> n.sample().kind() == StitchedSample.Kind.UNRESOLVED
                        && n.names().contains("<unknown context>"));
    }

    @Test
    void tasksShareTheirCreationContext() {
        Expect.consistent(run);
        StitchCounters c = run.counters();
        assertTrue(c.tasks() >= 30, c.toString());
        // All tasks come from one call site in one context: one region context and one task context.
        assertTrue(c.distinctContexts() <= 3, c.toString());
    }
}
