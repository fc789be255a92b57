package org.ompprof.unwinder.stack;

import java.util.Arrays;
import java.util.List;
import org.ompprof.unwinder.cfi.BadCfi;
import org.ompprof.unwinder.cfi.NoCfi;
import org.ompprof.unwinder.cfi.RowResult;
import org.ompprof.unwinder.cfi.UnwindRow;

/**
 * Unwinds recorded samples: from the sampled registers and stack snapshot to the chain of pcs,
 * using the CFI of the modules in an {@link AddressSpace}, rows read from the machine code where a pc
 * has no CFI ({@link org.ompprof.unwinder.code.CodeRows}), and frame pointers only where neither says.
 * Nothing is ever read outside the snapshot, so a cut stack yields a prefix of the true chain and a
 * reason, never invented frames.
 *
 * <p>An instance keeps scratch state and is not thread-safe: use one per thread. The address
 * space (and its CFI caches) can be shared.
 */
public final class StackUnwinder {
    public static final int DEFAULT_MAX_DEPTH = 1024;

    private final AddressSpace space;
    private long atNs;
    private final int maxDepth;
    private final UnwindState state = new UnwindState();
    private final CfiStep cfiStep = new CfiStep();
    private final FramePointerStep fpStep = new FramePointerStep();
    /** Frames of the sample in progress; reused so that growing a list is not paid per sample. */
    private Frame[] frames = new Frame[64];

    private int count;

    public StackUnwinder(AddressSpace space) {
        this(space, DEFAULT_MAX_DEPTH);
    }

    public StackUnwinder(AddressSpace space, int maxDepth) {
        if (maxDepth < 1) throw new IllegalArgumentException("maxDepth " + maxDepth);
        this.space = space;
        this.maxDepth = maxDepth;
    }

    public UnwindResult unwind(Registers registers, StackSnapshot snapshot) {
        return unwind(registers, snapshot, FrameKind.EXACT);
    }

    /**
     * @param firstKind how the registers' pc was found: {@link FrameKind#RETURN_ADDRESS} when the
     *     unwind goes on from a frame that an earlier walk reached through its callee
     */
    public UnwindResult unwind(Registers registers, StackSnapshot snapshot, FrameKind firstKind) {
        state.reset(registers, snapshot);
        count = 0;
        Frame frame = new Frame(registers.rip(), firstKind, space.find(registers.rip(), atNs), registers.rsp());
        add(frame);
        while (true) {
            Module module = frame.module();
            if (module == null)
                return end(Termination.UNKNOWN_PC, "0x" + Long.toHexString(frame.pc()) + " is in no module");
            if (count >= maxDepth) return end(Termination.DEPTH_LIMIT, maxDepth + " frames");
            RowResult row = module.cfi().rowFor(frame.relativeLookupPc());
            if (row instanceof NoCfi) row = module.code().rowFor(frame.relativeLookupPc());
            FrameKind nextKind;
            // An instanceof chain rather than a pattern switch: this is the per-frame hot path.
            if (row instanceof UnwindRow r) {
                StepOutcome outcome = cfiStep.apply(r, state);
                if (outcome != StepOutcome.CONTINUE) return stopped(outcome, frame);
                nextKind = r.signalFrame() ? FrameKind.EXACT : FrameKind.RETURN_ADDRESS;
            } else if (row instanceof BadCfi b) {
                return end(Termination.ERROR, where(frame) + b.message());
            } else {
                if (!fpStep.apply(state)) return end(Termination.NO_CFI_FALLBACK_FP, where(frame) + fpStep.detail());
                nextKind = FrameKind.FRAME_POINTER;
            }
            long pc = state.pc();
            if (pc == 0) return end(Termination.COMPLETE, "return address 0");
            Module next = space.find(pc, atNs);
            if (next == null && nextKind == FrameKind.FRAME_POINTER) {
                // An unverified frame-pointer guess that leads nowhere is more likely garbage than code.
                return end(
                        Termination.NO_CFI_FALLBACK_FP,
                        where(frame) + "frame-pointer chain led to 0x" + Long.toHexString(pc) + ", in no module");
            }
            frame = new Frame(pc, nextKind, next, state.sp());
            add(frame);
        }
    }

    /** Unwinds from now on at {@code timeNs} (0: unknown): the libraries mapped then (see {@link AddressSpace}). */
    public void at(long timeNs) {
        atNs = timeNs;
    }

    public long atNs() {
        return atNs;
    }

    public AddressSpace space() {
        return space;
    }

    private void add(Frame frame) {
        if (count == frames.length) frames = Arrays.copyOf(frames, Math.min(2 * count, maxDepth));
        frames[count++] = frame;
    }

    private UnwindResult stopped(StepOutcome outcome, Frame frame) {
        return switch (outcome) {
            case OUTERMOST -> end(Termination.COMPLETE, "");
            case TRUNCATED -> end(Termination.TRUNCATED, where(frame) + cfiStep.detail());
            default -> end(Termination.ERROR, where(frame) + cfiStep.detail());
        };
    }

    private static String where(Frame frame) {
        return frame.module().name() + "+0x" + Long.toHexString(frame.relativeLookupPc()) + ": ";
    }

    private UnwindResult end(Termination termination, String detail) {
        return new UnwindResult(List.of(Arrays.copyOf(frames, count)), termination, detail);
    }
}
