package org.ompprof.unwinder.stitch;

import java.util.List;
import org.ompprof.unwinder.stack.Frame;

/**
 * Where one task's frames lie in an unwound stack (innermost first), from the task's OMPT
 * frame addresses. {@code [entry, end)} are the task's frames, innermost first:
 * {@code entry} is the runtime entry point the task's code called if it is inside one (its
 * enter frame), else 0; {@code end} is the first frame of the runtime that started the task
 * (its exit frame), or the frame count when the task has no exit frame or it was not reached.
 *
 * <p>Frames are located by CFA, not by equality alone: a frame whose CFA equals the address's
 * CFA is an exact match; failing that the stack position decides (CFAs grow outward), and
 * the miss is counted, since it means the frame-address convention is not libomp's.
 *
 * @param enterReached false when the unwind ended before the user frames above the enter frame
 * @param exitReached false when the task has an exit frame that the unwind did not reach
 * @param inexact how many of the two addresses were placed by position only
 */
record TaskWindow(int entry, int end, boolean enterReached, boolean exitReached, int inexact) {
    static TaskWindow of(List<Frame> frames, long exitFrame, long enterFrame) {
        // A task calls into the runtime from its own frames, below its exit frame: an enter frame at or above the exit
        // frame is not the task's (libomp shows its creator's on a task with dependences, while the task runs)
        if (enterFrame != 0
                && exitFrame != 0
                && Long.compareUnsigned(FrameAddresses.cfaOf(enterFrame), FrameAddresses.cfaOf(exitFrame)) >= 0)
            enterFrame = 0;
        int n = frames.size();
        int entry = 0, end = n, inexact = 0;
        boolean enterReached = true, exitReached = true;
        if (enterFrame != 0) {
            long limit = FrameAddresses.cfaOf(enterFrame);
            entry = -1;
            for (int i = 0; i < n; i++) {
                long cfa = FrameAddresses.cfa(frames, i);
                if (cfa < 0) {
                    enterReached = false; // ran out of frames while still inside the runtime
                    entry = n;
                    break;
                }
                if (Long.compareUnsigned(cfa, limit) > 0) break;
                entry = i;
                if (cfa == limit) break;
            }
            if (entry < 0) entry = 0; // the leaf is already outside: a stale enter frame, nothing to drop
            if (enterReached && (entry >= n || FrameAddresses.cfa(frames, entry) != limit)) inexact++;
        }
        if (exitFrame != 0) {
            long limit = FrameAddresses.cfaOf(exitFrame);
            exitReached = false;
            for (int i = 0; i < n; i++) {
                long cfa = FrameAddresses.cfa(frames, i);
                if (cfa < 0) break;
                if (Long.compareUnsigned(cfa, limit) >= 0) {
                    end = i;
                    exitReached = true;
                    if (cfa != limit) inexact++;
                    break;
                }
            }
        }
        return new TaskWindow(Math.min(entry, end), end, enterReached, exitReached, inexact);
    }

    boolean isEmpty() {
        return entry >= end;
    }
}
