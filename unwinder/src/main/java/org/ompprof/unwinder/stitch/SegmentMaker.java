package org.ompprof.unwinder.stitch;

import java.util.ArrayList;
import java.util.List;
import org.ompprof.sampler.record.Context;
import org.ompprof.unwinder.stack.Frame;
import org.ompprof.unwinder.stack.Termination;
import org.ompprof.unwinder.stack.UnwindResult;

/**
 * Turns a context captured in a parallel_begin or task_create callback into the creating
 * task's segment: the agent's callback frames and the runtime's frames down to the
 * encountering task's enter frame (the runtime entry point, e.g. {@code __kmpc_fork_call}) are
 * dropped, so the segment ends at the user's call site; outward it stops at the encountering
 * task's exit frame, or at {@code main} when the encountering task is the initial task.
 */
final class SegmentMaker {
    private final RecordingModules modules;
    private final ContextUnwinder unwinder;
    private final Interner interner;
    private final StitchCounters.Tally tally;

    SegmentMaker(RecordingModules modules, ContextUnwinder unwinder, Interner interner, StitchCounters.Tally tally) {
        this.modules = modules;
        this.unwinder = unwinder;
        this.interner = interner;
        this.tally = tally;
    }

    Segment creation(Context context, long encExitFrame, long encEnterFrame) {
        return segment(context, encExitFrame, encEnterFrame, 0);
    }

    /**
     * The segment of a target construct's launch: as {@link #creation}, but it ends at the
     * user's frame that called the offload runtime ({@code codeptrRa} is that call's return
     * address). The encountering task's enter frame is not used: libomptarget sets none, so
     * what the task reports is a stale one of libomp's last runtime entry.
     */
    Segment launch(Context context, long codeptrRa, long encExitFrame) {
        return segment(context, encExitFrame, 0, codeptrRa);
    }

    private Segment segment(Context context, long encExitFrame, long encEnterFrame, long userReturnAddress) {
        UnwindResult r = unwinder.unwind(context, encExitFrame);
        List<Frame> frames = r.frames();
        TaskWindow w = TaskWindow.of(frames, encExitFrame, encEnterFrame);
        tally.inexactFrameMatches += w.inexact();
        int from = RuntimeLeaf.firstUserFrame(frames, w.entry(), w.end(), modules::isRuntime);
        int end = w.end();
        int caller = indexOfReturnAddress(frames, userReturnAddress, end);
        if (caller >= 0) from = caller;
        boolean complete;
        if (encExitFrame == 0) {
            int mainEnd = RuntimeLeaf.endAtMain(frames, from, end, modules::isMain);
            complete = mainEnd >= 0 || r.termination() == Termination.COMPLETE;
            if (mainEnd >= 0) end = mainEnd;
        } else {
            complete = w.exitReached() && w.enterReached();
        }
        return interner.segment(
                new Segment(rootFirst(frames, from, end, complete), complete ? Gap.NONE : Gap.TRUNCATED));
    }

    /** The innermost frame below {@code end} at return address {@code ra}, or -1 (also for ra 0). */
    private static int indexOfReturnAddress(List<Frame> frames, long ra, int end) {
        if (ra == 0) return -1;
        for (int i = 0; i < end; i++) {
            if (frames.get(i).pc() == ra) return i;
        }
        return -1;
    }

    /** {@code frames[from, end)} outermost first, behind a truncation marker if incomplete. */
    List<PathFrame> rootFirst(List<Frame> frames, int from, int end, boolean complete) {
        List<PathFrame> out = new ArrayList<>(Math.max(0, end - from) + 1);
        if (!complete) out.add(Placeholder.TRUNCATED);
        for (int i = end - 1; i >= from; i--) out.add(modules.toPathFrame(frames.get(i)));
        return out;
    }
}
