package org.ompprof.unwinder.code;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.ompprof.unwinder.cfi.NoCfi;
import org.ompprof.unwinder.cfi.RowResult;
import org.ompprof.unwinder.cfi.UnwindRow;
import org.ompprof.unwinder.x86.X86Decoder;
import org.ompprof.unwinder.x86.X86Instruction;

/**
 * One function's frame state before each of its instructions, found by following its code from the entry along
 * every path: both ways of a conditional branch, a jump's target inside the function, past a call. A return, an
 * indirect jump, a jump out of the function (a tail call) or bytes that do not decode end a path. Where paths meet
 * in different states, only what they agree on holds from there ({@link FrameState#meet}): an alloca on one path
 * leaves the frame pointer, a stack adjusted two ways leaves nothing, and no row rather than a guess. Code only an
 * indirect jump reaches (a switch's table) has no state. Immutable once made.
 */
final class FunctionFrames {
    private static final int[] NONE = {};

    private final long start;
    private final int[] offsets;
    private final int[] lengths;
    private final FrameState[] states;
    /** Rows made as they are asked for (a benign race: two threads may make equal ones). */
    private final UnwindRow[] rows;

    private FunctionFrames(long start, int[] offsets, int[] lengths, FrameState[] states) {
        this.start = start;
        this.offsets = offsets;
        this.lengths = lengths;
        this.states = states;
        this.rows = new UnwindRow[offsets.length];
    }

    /** The function whose code, at {@code start}, is {@code code}. */
    static FunctionFrames of(long start, byte[] code) {
        Map<Integer, FrameState> at = new HashMap<>();
        Map<Integer, Integer> length = new HashMap<>();
        ArrayDeque<Integer> work = new ArrayDeque<>();
        reach(at, work, code.length, 0, FrameState.ENTRY);
        while (!work.isEmpty()) {
            int offset = work.poll();
            FrameState s = at.get(offset);
            X86Instruction i = X86Decoder.decode(code, offset, code.length);
            if (i == null) continue;
            length.put(offset, i.length());
            FrameState next = StackEffects.after(s, i);
            for (int successor : successors(i, offset, code.length)) reach(at, work, code.length, successor, next);
        }
        int[] offsets =
                at.keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
        int[] lengths = new int[offsets.length];
        FrameState[] states = new FrameState[offsets.length];
        for (int k = 0; k < offsets.length; k++) {
            lengths[k] = length.getOrDefault(offsets[k], 1);
            FrameState s = at.get(offsets[k]);
            states[k] = s.knowsCfa() ? s : null;
        }
        return new FunctionFrames(start, offsets, lengths, states);
    }

    /** Gives {@code offset} the state {@code s}, or what it and the state it had agree on; queued if that changed. */
    private static void reach(
            Map<Integer, FrameState> at, ArrayDeque<Integer> work, int size, int offset, FrameState s) {
        if (offset < 0 || offset >= size) return;
        FrameState was = at.get(offset);
        FrameState now = was == null ? s : was.meet(s);
        if (was == null || !now.equals(was)) {
            at.put(offset, now);
            work.add(offset);
        }
    }

    /** Where control goes after {@code i}, as offsets in the function; outside it is no successor. */
    private static int[] successors(X86Instruction i, int offset, int size) {
        int next = offset + i.length();
        if (ends(i)) return NONE;
        if (!i.isRelativeBranch() || isCall(i)) return new int[] {next};
        long target = i.relativeTarget(offset);
        int inside = target >= 0 && target < size ? (int) target : -1;
        boolean always = i.map() == 0 && (i.opcode() == 0xe9 || i.opcode() == 0xeb);
        return always ? new int[] {inside} : new int[] {inside, next};
    }

    private static boolean isCall(X86Instruction i) {
        return i.map() == 0 && i.opcode() == 0xe8;
    }

    /** Returns, indirect jumps, traps and halts: nothing follows on this path. */
    private static boolean ends(X86Instruction i) {
        if ((i.prefixes() & (X86Instruction.VEX | X86Instruction.EVEX)) != 0) return false;
        if (i.map() == 1) return i.opcode() == 0x0b; // ud2
        return switch (i.opcode()) {
            case 0xc2, 0xc3, 0xca, 0xcb, 0xcc, 0xcf, 0xf4 -> true;
            case 0xff -> ((i.modrm() >> 3) & 7) == 4 || ((i.modrm() >> 3) & 7) == 5;
            default -> false;
        };
    }

    /** Instructions reached. */
    int count() {
        return offsets.length;
    }

    /** The {@code k}-th instruction reached, in address order. */
    long pcAt(int k) {
        return start + offsets[k];
    }

    /** The state before it, or null where it is not known (paths disagreed, or no CFA can be computed). */
    FrameState stateAt(int k) {
        return states[k];
    }

    /** The row at relative pc {@code pc} in this function, or {@link NoCfi} where its state is not known. */
    RowResult rowFor(long pc) {
        int k = Arrays.binarySearch(offsets, (int) (pc - start));
        if (k < 0) k = -k - 2;
        if (k < 0 || pc - start >= offsets[k] + lengths[k] || states[k] == null) return new NoCfi(pc, pc + 1);
        UnwindRow row = rows[k];
        if (row == null) {
            long from = start + offsets[k];
            rows[k] = row = states[k].row(from, from + lengths[k]);
        }
        return row;
    }
}
