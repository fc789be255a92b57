package org.ompprof.unwinder.stitch;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.ompprof.sampler.record.Context;
import org.ompprof.unwinder.clock.Stage;
import org.ompprof.unwinder.clock.StageClock;
import org.ompprof.unwinder.stack.Registers;
import org.ompprof.unwinder.stack.StackSnapshot;
import org.ompprof.unwinder.stack.StackUnwinder;
import org.ompprof.unwinder.stack.UnwindResult;

/**
 * Unwinds a recorded context, but only as far as the task's exit frame: everything outward of
 * it belongs to the runtime and to other tasks, and is replaced by a stitched context anyway.
 * Cutting the snapshot just above the exit frame's CFA stops the walk right after the runtime
 * frame that started the task (whose saved registers lie below that CFA) and spares both the
 * copy and the unwind of the rest. Not thread-safe: one per stitching thread.
 */
final class ContextUnwinder {
    private final StackUnwinder unwinder;
    private final StageClock clock;
    private byte[] buffer = new byte[16 * 1024];

    ContextUnwinder(StackUnwinder unwinder) {
        this(unwinder, StageClock.off());
    }

    ContextUnwinder(StackUnwinder unwinder, StageClock clock) {
        this.unwinder = unwinder;
        this.clock = clock;
    }

    /** @param exitFrame the task's OMPT exit frame, 0 to unwind the whole snapshot */
    UnwindResult unwind(Context c, long exitFrame) {
        Stage was = clock.enter(Stage.UNWIND);
        try {
            return unwindTimed(c, exitFrame);
        } finally {
            clock.count(Stage.UNWIND, 1);
            clock.enter(was);
        }
    }

    private UnwindResult unwindTimed(Context c, long exitFrame) {
        int length = c.stackLength();
        if (exitFrame != 0) {
            long upTo = FrameAddresses.cfaOf(exitFrame) - c.rsp();
            if (upTo >= 0 && upTo < length) length = (int) upTo;
        }
        Registers registers = new Registers(c.rip(), c.rsp(), c.rbp());
        // a snapshot that is a slice of a heap array (a recording's section) is read where it lies
        if (c.stack().heapBase().orElse(null) instanceof byte[] array) {
            return unwinder.unwind(registers, new StackSnapshot(c.rsp(), array, Math.toIntExact(c.stack().address()), length));
        }
        if (buffer.length < length) buffer = new byte[Math.max(length, 2 * buffer.length)];
        MemorySegment.copy(c.stack(), ValueLayout.JAVA_BYTE, 0, buffer, 0, length);
        return unwinder.unwind(registers, new StackSnapshot(c.rsp(), buffer, 0, length));
    }
}
