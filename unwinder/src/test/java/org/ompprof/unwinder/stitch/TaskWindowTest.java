package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.ompprof.unwinder.stack.Frame;
import org.ompprof.unwinder.stack.FrameKind;

/**
 * Frame elision on synthetic stacks laid out the way libomp's are: a worker waiting at a
 * barrier, innermost first.
 */
class TaskWindowTest {
    /** pcs below 0x1000 are "runtime", the others user code. */
    private static final Predicate<Frame> RUNTIME = f -> f.pc() < 0x1000;

    /**
     * 0 runtime internal, 1 runtime internal, 2 __kmpc_barrier (the entry), 3 outlined user
     * function, 4 __kmp_invoke_microtask (runtime), 5 runtime thread start.
     */
    private static final long[] PCS = {0x100, 0x200, 0x300, 0x5000, 0x400, 0x500};

    private static final long[] SPS = {0x7000, 0x7040, 0x7080, 0x70c0, 0x7100, 0x7140};
    /** __builtin_frame_address(0) of frames 2 and 4: their CFA (the next frame's sp) - 16. */
    private static final long ENTER = 0x70c0 - 16, EXIT = 0x7140 - 16;

    private static List<Frame> frames(int count) {
        List<Frame> out = new ArrayList<>();
        for (int i = 0; i < count; i++)
            out.add(new Frame(PCS[i], i == 0 ? FrameKind.EXACT : FrameKind.RETURN_ADDRESS, null, SPS[i]));
        return out;
    }

    @Test
    void barrierWaitKeepsTheEntryAndTheUserFrames() {
        TaskWindow w = TaskWindow.of(frames(6), EXIT, ENTER);
        assertEquals(new TaskWindow(2, 4, true, true, 0), w);
    }

    /**
     * libomp releasing a finished task's dependences: the task's code returned, only runtime frames lie below its exit
     * frame, and its enter frame shows a value above the exit frame (its parent's). The window is the task's runtime
     * frames, complete, as with no enter frame: not an unwind that never reached the entry.
     */
    @Test
    void anEnterFrameAboveTheExitFrameIsNotTheTasks() {
        long[] pcs = {0x100, 0x200, 0x300, 0x400, 0x500, 0x5000};
        List<Frame> frames = new ArrayList<>();
        for (int i = 0; i < pcs.length; i++)
            frames.add(new Frame(pcs[i], i == 0 ? FrameKind.EXACT : FrameKind.RETURN_ADDRESS, null, SPS[i]));
        long exit = 0x70c0 - 16, parentsEnter = 0x7140 - 16; // frames 2 and 4
        TaskWindow w = TaskWindow.of(frames, exit, parentsEnter);
        assertEquals(TaskWindow.of(frames, exit, 0), w);
        assertEquals(new TaskWindow(0, 2, true, true, 0), w);
    }

    @Test
    void noEnterFrameMeansTheWholeTask() {
        TaskWindow w = TaskWindow.of(frames(6), EXIT, 0);
        assertEquals(0, w.entry());
        assertEquals(4, w.end());
        // ... and the runtime's internals at the leaf collapse to the entry the user called.
        assertEquals(2, RuntimeLeaf.entryCalledByUser(frames(6), w.entry(), w.end(), RUNTIME));
        assertEquals(3, RuntimeLeaf.firstUserFrame(frames(6), w.entry(), w.end(), RUNTIME));
    }

    @Test
    void anExitFrameBeyondTheUnwindIsNotReached() {
        TaskWindow w = TaskWindow.of(frames(4), EXIT, ENTER); // cut before the runtime frame
        assertFalse(w.exitReached());
        assertEquals(4, w.end());
    }

    @Test
    void anEnterFrameBeyondTheUnwindLeavesNoUserFrame() {
        TaskWindow w = TaskWindow.of(frames(2), EXIT, ENTER);
        assertFalse(w.enterReached());
        assertTrue(w.isEmpty());
    }

    @Test
    void addressesMatchingNoFrameArePlacedByPositionAndCounted() {
        TaskWindow w = TaskWindow.of(frames(6), EXIT - 8, ENTER + 8);
        assertEquals(new TaskWindow(2, 4, true, true, 2), w);
    }

    @Test
    void aStaleEnterFrameBelowTheLeafDropsNothing() {
        TaskWindow w = TaskWindow.of(frames(6), EXIT, 0x6000);
        assertEquals(0, w.entry());
        assertEquals(1, w.inexact());
    }

    @Test
    void withoutRuntimeFramesTheLeafStays() {
        List<Frame> user = List.of(
                new Frame(0x5000, FrameKind.EXACT, null, 0x7000),
                new Frame(0x6000, FrameKind.RETURN_ADDRESS, null, 0x7040));
        assertEquals(0, RuntimeLeaf.entryCalledByUser(user, 0, 2, RUNTIME));
        assertEquals(2, RuntimeLeaf.endAtMain(user, 0, 2, f -> f.pc() == 0x6000));
        assertEquals(-1, RuntimeLeaf.endAtMain(user, 0, 2, f -> false));
    }
}
