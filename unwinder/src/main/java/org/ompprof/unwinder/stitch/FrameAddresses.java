package org.ompprof.unwinder.stitch;

import java.util.List;
import org.ompprof.unwinder.stack.Frame;

/**
 * How OMPT frame addresses relate to unwound frames.
 *
 * <p>libomp 19 reports {@code __builtin_frame_address(0)} of a runtime function: the address
 * where that function saved rbp, which is its CFA - 16 (x86-64: return address at CFA - 8,
 * saved rbp below it). It does so for both addresses: an exit frame is that of the runtime
 * function that called the task's code ({@code __kmp_invoke_microtask} for implicit tasks,
 * {@code __kmp_invoke_task} for explicit ones), an enter frame that of the runtime entry point
 * the task's code called ({@code __kmpc_barrier}, {@code __kmpc_fork_call},
 * {@code __kmpc_omp_task}, ...). The flags it reports say nothing reliable (0x20 =
 * framepointer on the task frames, 0 on the initial task, never the application bit), so they
 * are not consulted. Measured on Debian's libomp 19 by the stitch tests.
 */
final class FrameAddresses {
    /** CFA minus the frame address libomp reports for the same frame. */
    static final long FRAME_POINTER_OFFSET = 16;

    private FrameAddresses() {}

    /** The CFA of frame i: the stack pointer of its caller; -1 for the outermost frame, whose caller is unknown. */
    static long cfa(List<Frame> frames, int i) {
        return i + 1 < frames.size() ? frames.get(i + 1).sp() : -1;
    }

    /** The CFA of the frame whose OMPT frame address is {@code frameAddress}. */
    static long cfaOf(long frameAddress) {
        return frameAddress + FRAME_POINTER_OFFSET;
    }
}
