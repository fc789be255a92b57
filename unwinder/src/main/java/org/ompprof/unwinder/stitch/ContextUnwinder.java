package org.ompprof.unwinder.stitch;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.ompprof.sampler.record.Context;
import org.ompprof.sampler.record.StackWindow;
import org.ompprof.sampler.record.Walk;
import org.ompprof.sampler.wire.Wire;
import org.ompprof.unwinder.clock.Stage;
import org.ompprof.unwinder.clock.StageClock;
import org.ompprof.unwinder.stack.AddressSpace;
import org.ompprof.unwinder.stack.Frame;
import org.ompprof.unwinder.stack.FrameKind;
import org.ompprof.unwinder.stack.Module;
import org.ompprof.unwinder.stack.Registers;
import org.ompprof.unwinder.stack.StackSnapshot;
import org.ompprof.unwinder.stack.StackUnwinder;
import org.ompprof.unwinder.stack.Termination;
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

    /** Unwinds from now on at {@code timeNs} (a sample's time; 0 unknown): the libraries mapped then. */
    void at(long timeNs) {
        unwinder.at(timeNs);
    }

    /** As {@link #unwind(Context, Walk, long)} with the context's own walk. */
    UnwindResult unwind(Context c, long exitFrame) {
        return unwind(c, c.walk(), exitFrame);
    }

    /** The snapshot alone, from the context's registers. */
    private UnwindResult unwindSnapshot(Context c, long exitFrame) {
        Stage was = clock.enter(Stage.UNWIND);
        try {
            return unwindTimed(c, exitFrame);
        } finally {
            clock.count(Stage.UNWIND, 1);
            clock.enter(was);
        }
    }

    /**
     * The frames the agent walked, then, where its walk stopped short, the unwind of the snapshot
     * from there; cut just above the task's exit frame.
     *
     * @param exitFrame the task's OMPT exit frame, 0 to unwind the whole stack
     */
    UnwindResult unwind(Context c, Walk walk, long exitFrame) {
        if (walk.isCheck() || walk.count() == 0 && walk.stopKind() == Wire.WALK_CONTINUE)
            return unwindSnapshot(c, exitFrame);
        Stage was = clock.enter(Stage.UNWIND);
        try {
            return walked(c, walk, exitFrame);
        } finally {
            clock.count(Stage.UNWIND, 1);
            clock.enter(was);
        }
    }

    private UnwindResult walked(Context c, Walk walk, long exitFrame) {
        AddressSpace space = unwinder.space();
        // a frame lies inside the task iff its sp is at most the CFA of the runtime frame named by the exit frame
        long cfaExit = exitFrame != 0 ? FrameAddresses.cfaOf(exitFrame) : -1;
        List<Frame> frames = new ArrayList<>(walk.count() + 16);
        for (int i = 0; i <= walk.count(); i++) {
            long pc = i < walk.count() ? walk.pc(i) : c.rip();
            long sp = i < walk.count() ? walk.sp(i) : c.rsp();
            if (i > 0 && Long.compareUnsigned(sp, cfaExit) > 0) {
                return new UnwindResult(frames, Termination.TRUNCATED, "task's exit frame reached");
            }
            FrameKind kind = i == 0 ? FrameKind.EXACT : FrameKind.RETURN_ADDRESS;
            if (i == walk.count() && walk.stopKind() == Wire.WALK_CONTINUE) {
                UnwindResult rest = unwindTimed(c, exitFrame, kind);
                frames.addAll(rest.frames());
                return new UnwindResult(frames, rest.termination(), rest.detail());
            }
            Module module = space.find(pc, unwinder.atNs());
            frames.add(new Frame(pc, kind, module, sp));
            if (module == null) {
                return new UnwindResult(
                        frames, Termination.UNKNOWN_PC, "0x" + Long.toHexString(pc) + " is in no module");
            }
        }
        return walk.stopKind() == Wire.WALK_COMPLETE
                ? new UnwindResult(frames, Termination.COMPLETE, "")
                : new UnwindResult(frames, Termination.TRUNCATED, "task's exit frame reached");
    }

    private UnwindResult unwindTimed(Context c, long exitFrame) {
        return unwindTimed(c, exitFrame, FrameKind.EXACT);
    }

    private UnwindResult unwindTimed(Context c, long exitFrame, FrameKind firstKind) {
        int length = upToExit(c.rsp(), c.stackLength(), exitFrame);
        Registers registers = new Registers(c.rip(), c.rsp(), c.rbp(), c.rbx());
        StackSnapshot upper = upper(c.upper(), exitFrame);
        // a snapshot that is a slice of a heap array (a recording's section) is read where it lies
        if (c.stack().heapBase().orElse(null) instanceof byte[] array) {
            return unwinder.unwind(
                    registers,
                    new StackSnapshot(c.rsp(), array, Math.toIntExact(c.stack().address()), length, upper),
                    firstKind);
        }
        if (buffer.length < length) buffer = new byte[Math.max(length, 2 * buffer.length)];
        MemorySegment.copy(c.stack(), ValueLayout.JAVA_BYTE, 0, buffer, 0, length);
        return unwinder.unwind(registers, new StackSnapshot(c.rsp(), buffer, 0, length, upper), firstKind);
    }

    /** The bytes of a stretch of stack from {@code base} that lie below the exit frame's CFA (0: no exit frame). */
    private static int upToExit(long base, int length, long exitFrame) {
        if (exitFrame == 0) return length;
        long upTo = FrameAddresses.cfaOf(exitFrame) - base;
        return upTo >= 0 && upTo < length ? (int) upTo : length;
    }

    /** A sample's second stretch of stack (rare: code without unwind rows keeping a large frame), to the same end. */
    private static StackSnapshot upper(StackWindow w, long exitFrame) {
        if (w.isEmpty()) return null;
        int length = upToExit(w.address(), w.length(), exitFrame);
        return new StackSnapshot(w.address(), w.bytes().asSlice(0, length).toArray(ValueLayout.JAVA_BYTE));
    }
}
