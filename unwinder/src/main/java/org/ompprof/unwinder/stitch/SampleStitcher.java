package org.ompprof.unwinder.stitch;

import java.util.ArrayList;
import java.util.List;
import org.ompprof.sampler.omp.OmpState;
import org.ompprof.sampler.omp.TaskFlags;
import org.ompprof.sampler.omp.ThreadType;
import org.ompprof.sampler.omp.WaitClass;
import org.ompprof.sampler.record.Context;
import org.ompprof.sampler.record.SampleRecord;
import org.ompprof.sampler.record.TaskLevel;
import org.ompprof.sampler.wire.Wire;
import org.ompprof.unwinder.stack.Frame;
import org.ompprof.unwinder.stack.Termination;
import org.ompprof.unwinder.stack.UnwindResult;

/**
 * Stitches one sample: classifies it by OMPT state and task frames, unwinds the current
 * task's part of the stack, removes the runtime's frames and puts the rest under the context
 * of the task's region or creator. The rules are in the package documentation.
 */
final class SampleStitcher {
    /** Every idle sample's path: one list, so that the build names it once a run of them. */
    private static final List<PathFrame> IDLE_PATH = List.of(Placeholder.OMP_IDLE);

    private final RecordingModules modules;
    private final ContextUnwinder unwinder;
    private final SegmentMaker segments;
    private final Creations creations;
    private final ContextResolver contexts;
    private final StitchCounters.Tally tally;
    /**
     * The last runtime-window path and the context it was made under: a thread waiting at a barrier is sampled there
     * again and again, and its samples share one path list, which the build names once (see ProfileBuilder).
     */
    private ContextNode windowContext;

    private List<PathFrame> windowPath;

    SampleStitcher(
            RecordingModules modules,
            ContextUnwinder unwinder,
            SegmentMaker segments,
            Creations creations,
            ContextResolver contexts,
            StitchCounters.Tally tally) {
        this.modules = modules;
        this.unwinder = unwinder;
        this.segments = segments;
        this.creations = creations;
        this.contexts = contexts;
        this.tally = tally;
    }

    StitchedSample stitch(SampleRecord s) {
        StitchedSample out = classify(s);
        tally.count(out);
        return out;
    }

    private StitchedSample classify(SampleRecord s) {
        if (s.state() == OmpState.IDLE.code()) return idle(s);
        boolean omptKnown =
                (s.flags() & Wire.SAMPLE_OMPT_READY) != 0 && !s.taskLevels().isEmpty();
        if (!omptKnown) {
            // A worker with no task is between regions; any other thread is plain code (OMPT not up yet, or no OpenMP).
            if (creations.threadTypes.get(s.threadSeq()) == ThreadType.WORKER.code()) return idle(s);
            return taskPath(s, ContextNode.ROOT, 0, 0, true);
        }
        return classify(s, s.taskLevels());
    }

    /** @param levels the sample's task levels from the one taken as current */
    private StitchedSample classify(SampleRecord s, List<TaskLevel> levels) {
        TaskLevel task = levels.getFirst();
        if (task.taskId() == 0 && task.exitFrame() == 0 && levels.size() > 1 && task.threadNum() != 0) {
            // A worker of a new team between its release and its implicit task's begin: its stack is
            // its own (from the thread's start into the runtime), none of the region's code has run,
            // and level 1, the encountering task, is another thread's (its frames are not on this
            // stack). In the runtime, under the code that created the region. Woken workers are
            // sampled right there (the wall sampler signals a thread as soon as it runs again).
            ContextNode context = task.parallelId() != 0 ? contexts.ofRegion(task.parallelId()) : ContextNode.UNKNOWN;
            if (!context.isKnown()) tally.unknownContexts++;
            return runtimeWindow(s, context, false);
        }
        if (task.taskId() == 0 && levels.size() > 1 && (task.exitFrame() == 0 || task.explicit())) {
            // Between parallel_begin and implicit_task on the encountering thread (the new team's
            // thread 0): the new task exists but has not begun, and the stack is still the
            // encountering task's, inside the runtime call that forks. Likewise an undeferred task
            // libomp made current (its frames set) before its task_create callback gave it an id:
            // the stack is its creator's, inside __kmpc_omp_task_begin_if0.
            StitchedSample outer = classify(s, levels.subList(1, levels.size()));
            return outer.kind() == StitchedSample.Kind.EXACT
                    ? withKind(outer, StitchedSample.Kind.RUNTIME_WINDOW)
                    : outer;
        }
        long region = task.parallelId() != 0
                ? task.parallelId()
                : creations.regionOfImplicitTask.getIfAbsent(task.taskId(), 0);
        if (OmpState.of(s.state()).isRegionEndBarrier() && region != 0 && s.timeNs() >= creations.regionEnd(region))
            return idle(s);
        if ((task.taskFlags() & TaskFlags.INITIAL) != 0) {
            // A worker thread runs no initial task: libomp reports one for a worker still starting, before it
            // first joins a team (state overhead; Rodinia's lud, 40 threads on 2 cores): between regions.
            if (creations.threadTypes.get(s.threadSeq()) == ThreadType.WORKER.code()) return idle(s);
            return taskPath(s, ContextNode.ROOT, 0, task.enterFrame(), true);
        }
        ContextNode context = contexts.ofLevels(levels);
        if (!context.isKnown()) tally.unknownContexts++;
        if (task.exitFrame() == 0) return runtimeWindow(s, context, !task.explicit());
        if (returned(s, task.exitFrame())) return runtimeWindow(s, context, false);
        return taskPath(s, context, task.exitFrame(), task.enterFrame(), false);
    }

    /**
     * Whether the task's exit frame lies below the sampled frame: the task's code has returned and the runtime has not
     * yet made another task current (libomp finishing a task it ran at once from its creator's {@code
     * __kmpc_omp_task}, its deque full; or a region's implicit task between {@code __kmp_invoke_microtask}'s return and
     * the clearing of its exit frame). The thread runs the runtime's code under the task's creation context; no unwind
     * can reach the stale exit frame. A leaf at the exit frame's CFA is in its caller, after the return: the frame's
     * own code and its callees run below it.
     */
    static boolean returned(SampleRecord s, long exitFrame) {
        long leafSp = s.walk().count() > 0 ? s.walk().sp(0) : s.context().rsp();
        return Long.compareUnsigned(leafSp, FrameAddresses.cfaOf(exitFrame)) >= 0;
    }

    private static StitchedSample withKind(StitchedSample s, StitchedSample.Kind kind) {
        return new StitchedSample(
                s.threadSeq(), s.timeNs(), s.weightNs(), s.state(), s.waitId(), s.regionId(), s.pathRootFirst(), kind);
    }

    /**
     * The task's own frames under its context.
     *
     * @param toMain the task is the initial task (or OMPT is not involved): its frames reach the
     *     thread's root, shown from {@code main}
     */
    private StitchedSample taskPath(
            SampleRecord s, ContextNode context, long exitFrame, long enterFrame, boolean toMain) {
        unwinder.at(s.timeNs());
        UnwindResult r = unwinder.unwind(s.context(), exitFrame);
        TaskWindow w = TaskWindow.of(r.frames(), exitFrame, enterFrame);
        if ((!w.exitReached() || w.inexact() > 0) && guessedRbp(s, exitFrame)) {
            UnwindResult again = unwinder.unwind(withRbp(s.context(), exitFrame), exitFrame);
            TaskWindow there = TaskWindow.of(again.frames(), exitFrame, enterFrame);
            if (there.exitReached() && there.inexact() == 0) {
                r = again;
                w = there;
            }
        }
        List<Frame> frames = r.frames();
        tally.inexactFrameMatches += w.inexact();
        int from = RuntimeLeaf.entryCalledByUser(frames, w.entry(), w.end(), modules::isRuntime);
        int end = w.end();
        boolean complete;
        if (toMain) {
            int mainEnd = RuntimeLeaf.endAtMain(frames, from, end, modules::isMain);
            complete = mainEnd >= 0 || r.termination() == Termination.COMPLETE;
            if (mainEnd >= 0) end = mainEnd;
        } else {
            complete = w.exitReached() && w.enterReached();
        }
        // a complete stack with no user frame left is the runtime's, whichever task it belongs to
        if (complete && from >= end) return runtimeWindow(s, context, false);
        if (!complete && from >= end) {
            // The unwind never left the runtime: show the runtime call it got to, after the marker.
            end = frames.size();
            from = RuntimeLeaf.entryCalledByUser(frames, 0, end, modules::isRuntime);
        }
        List<PathFrame> path = new ArrayList<>(context.depth() + end - from + 1);
        context.appendTo(path);
        path.addAll(segments.rootFirst(frames, from, Math.max(from, end), complete));
        return sample(s, path, kind(context.gap(), complete, r.termination()));
    }

    /**
     * Whether the sample was taken from outside its blocked thread, whose rbp the agent could not read and guessed
     * from the copied stack: a frame-pointer frame just under the task's exit frame may be a callee-saved register
     * pushed there. Code built without frame pointers leaves rbp what the runtime's frame that called the task had,
     * its exit frame: the unwind from there is the other guess.
     */
    private static boolean guessedRbp(SampleRecord s, long exitFrame) {
        return (s.flags() & Wire.SAMPLE_OUTSIDE) != 0
                && exitFrame != 0
                && s.context().rbp() != exitFrame;
    }

    private static Context withRbp(Context c, long rbp) {
        return new Context(c.rip(), c.rsp(), rbp, c.flags(), c.stack(), c.walk());
    }

    /** An unwind that failed (rather than ran out of snapshot) leaves the path unresolved, like an unknown context. */
    private static StitchedSample.Kind kind(Gap contextGap, boolean complete, Termination termination) {
        Gap own = complete
                ? Gap.NONE
                : termination == Termination.TRUNCATED || termination == Termination.DEPTH_LIMIT
                        ? Gap.TRUNCATED
                        : Gap.UNKNOWN;
        return switch (contextGap.worst(own)) {
            case NONE -> StitchedSample.Kind.EXACT;
            case TRUNCATED -> StitchedSample.Kind.TRUNCATED;
            case UNKNOWN -> StitchedSample.Kind.UNRESOLVED;
        };
    }

    /**
     * Frames not (or no longer) set: the task's user code is not on the stack.
     *
     * @param regionEnd the task is an implicit one, whose code has returned if the thread waits
     *     at a barrier: the region's end barrier (an explicit task without frames is about to
     *     start or has just finished, whatever the state)
     */
    private StitchedSample runtimeWindow(SampleRecord s, ContextNode context, boolean regionEnd) {
        boolean barrier = regionEnd && OmpState.of(s.state()).waitClass() == WaitClass.BARRIER;
        StitchedSample.Kind kind = !context.isKnown()
                ? StitchedSample.Kind.UNRESOLVED
                : barrier ? StitchedSample.Kind.IMPLICIT_BARRIER : StitchedSample.Kind.RUNTIME_WINDOW;
        return sample(s, windowPath(context, barrier), kind);
    }

    private List<PathFrame> windowPath(ContextNode context, boolean barrier) {
        Placeholder end = barrier ? Placeholder.OMP_BARRIER : Placeholder.OMP_RUNTIME;
        if (context == windowContext && windowPath.getLast() == end) return windowPath;
        List<PathFrame> path = new ArrayList<>(context.depth() + 1);
        context.appendTo(path);
        path.add(end);
        windowContext = context;
        windowPath = List.copyOf(path);
        return windowPath;
    }

    /** The innermost region: the current task's, else the sample's innermost parallel level. */
    private long regionOf(SampleRecord s) {
        if (!s.taskLevels().isEmpty()) {
            TaskLevel task = s.taskLevels().getFirst();
            long region = task.parallelId() != 0
                    ? task.parallelId()
                    : creations.regionOfImplicitTask.getIfAbsent(task.taskId(), 0);
            if (region != 0) return region;
        }
        return s.parallelLevels().isEmpty() ? 0 : s.parallelLevels().getFirst().parallelId();
    }

    private StitchedSample idle(SampleRecord s) {
        return sample(s, IDLE_PATH, StitchedSample.Kind.IDLE);
    }

    private StitchedSample sample(SampleRecord s, List<PathFrame> path, StitchedSample.Kind kind) {
        return new StitchedSample(
                s.threadSeq(), s.timeNs(), s.weightNs(), s.state(), s.waitId(), regionOf(s), path, kind);
    }
}
