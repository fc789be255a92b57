package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ompprof.sampler.record.Context;
import org.ompprof.sampler.record.SampleRecord;
import org.ompprof.sampler.record.Walk;
import org.ompprof.sampler.wire.Wire;

/**
 * A task whose exit frame lies below the sampled frame has returned: BOTS concom's untied tasks, run at once from their
 * creator's {@code __kmpc_omp_task} with the deque full, were sampled in the runtime's code after their return while
 * the runtime still named them current. 67 of its 2,089 samples were stitched as truncated, each with one runtime
 * frame under a {@code <truncated>} marker; as returned tasks they are the runtime's window under the creation context
 * (2 truncated left).
 */
class ReturnedTaskTest {
    private static final long EXIT = 0x7fff_8635_d4b0L; // the runtime frame that called the task's code

    private static SampleRecord sample(long rsp, Walk walk) {
        Context c = new Context(0x1000, rsp, 0, 0, MemorySegment.ofArray(new byte[0]), walk);
        return new SampleRecord(1, 0, 1_000_000, 1, 0, 1, 0, 0, List.of(), List.of(), c);
    }

    @Test
    void aLeafAboveTheExitFramesCallerIsInAReturnedTask() {
        // the leaf's sp as the handler walked it (the context is where its walk stopped, 512 frames up)
        Walk walked = new Walk(new long[] {0x14be_154e_5bbcL}, new long[] {0x7fff_8635_d590L}, Wire.WALK_CONTINUE);
        assertTrue(SampleStitcher.returned(sample(0x7fff_8636_87a0L, walked), EXIT));
        assertTrue(SampleStitcher.returned(sample(0x7fff_8635_d590L, Walk.NONE), EXIT));
        // right after __kmp_invoke_microtask returned, before libomp cleared the exit frame it had set (a region-heavy
        // time step: main;region;<truncated>;libomp.so.5+0x48e1b in 3 of 6 runs)
        assertTrue(SampleStitcher.returned(sample(EXIT + FrameAddresses.FRAME_POINTER_OFFSET, Walk.NONE), EXIT));
    }

    @Test
    void aLeafInsideTheTaskOrItsRuntimeCallsIsNot() {
        // the task's own frames and whatever they call lie below the exit frame's CFA (its return address, 8 below it,
        // is on top of the stack at the frame's last instruction)
        for (long sp : new long[] {0x7fff_8635_d400L, EXIT, EXIT + FrameAddresses.FRAME_POINTER_OFFSET - 8}) {
            assertFalse(SampleStitcher.returned(sample(sp, Walk.NONE), EXIT), Long.toHexString(sp));
            Walk walked = new Walk(new long[] {0x1000}, new long[] {sp}, Wire.WALK_CONTINUE);
            assertFalse(SampleStitcher.returned(sample(0x7fff_8640_0000L, walked), EXIT), Long.toHexString(sp));
        }
    }
}
