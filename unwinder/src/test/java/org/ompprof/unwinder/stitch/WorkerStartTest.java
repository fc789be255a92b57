package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.ompprof.sampler.omp.OmpState;
import org.ompprof.sampler.omp.TaskFlags;
import org.ompprof.sampler.omp.ThreadType;
import org.ompprof.sampler.record.Context;
import org.ompprof.sampler.record.ParallelLevel;
import org.ompprof.sampler.record.SampleRecord;
import org.ompprof.sampler.record.TaskLevel;
import org.ompprof.sampler.record.ThreadBegin;
import org.ompprof.sampler.record.Walk;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.wire.Wire;

/**
 * A worker thread still starting, before it first joins a team, in libomp's state overhead: the runtime reports an
 * initial task of its own there. Rodinia's lud with 40 threads on 2 cores had such first samples of its workers on
 * their whole stack from the thread's start ({@code __GI___clone3;start_thread;libomp.so.5+0xb9933}), counted exact;
 * a worker runs no initial task, and such a sample is between regions. The same on the initial thread is its own.
 */
class WorkerStartTest {
    @Test
    void aStartingWorkersInitialTaskIsIdle() throws Exception {
        try (Recording r = Recording.open(StitchPrograms.recording("regions", Map.of()))) {
            Stitcher st = Stitcher.of(r);
            List<ThreadBegin> begins = r.records()
                    .filter(w -> w instanceof ThreadBegin)
                    .map(w -> (ThreadBegin) w)
                    .toList();
            int worker = begins.stream()
                    .filter(b -> b.threadType() == ThreadType.WORKER.code())
                    .findFirst()
                    .orElseThrow()
                    .threadSeq();
            int initial = begins.stream()
                    .filter(b -> b.threadType() == ThreadType.INITIAL.code())
                    .findFirst()
                    .orElseThrow()
                    .threadSeq();
            assertEquals(
                    StitchedSample.Kind.IDLE, st.stitchUntimed(starting(worker)).kind());
            assertNotEquals(
                    StitchedSample.Kind.IDLE,
                    st.stitchUntimed(starting(initial)).kind());
        }
    }

    /** As the lud run's first worker samples: overhead, an initial task without id or frames, team of one. */
    private static SampleRecord starting(int threadSeq) {
        TaskLevel level0 = new TaskLevel(0, 0, 32, 32, TaskFlags.INITIAL, 1, 0, 0, 2);
        List<ParallelLevel> parallel = List.of(new ParallelLevel(0, 1, 2), new ParallelLevel(1, 1, 2));
        Context c = new Context(0x1000, 0x7fff_0000_0000L, 0, 0, MemorySegment.ofArray(new byte[0]), Walk.NONE);
        return new SampleRecord(
                threadSeq,
                1,
                1_000_000,
                1,
                1,
                OmpState.OVERHEAD.code(),
                Wire.SAMPLE_OMPT_READY,
                0,
                List.of(level0),
                parallel,
                c);
    }
}
