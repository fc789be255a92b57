package org.ompprof.unwinder.cfi;

import static org.ompprof.unwinder.cfi.EvaluationException.Kind.LIMIT;
import static org.ompprof.unwinder.cfi.EvaluationException.Kind.MALFORMED;
import static org.ompprof.unwinder.cfi.EvaluationException.Kind.MEMORY_UNAVAILABLE;
import static org.ompprof.unwinder.cfi.EvaluationException.Kind.REGISTER_UNKNOWN;

/**
 * A stack machine for the DWARF expressions found in x86-64 call-frame information (the PLT's
 * CFA rule, glibc's signal trampoline, hand-written assembly). Steps and stack depth are
 * bounded so that a looping or deeply pushing expression from a damaged file ends in an
 * exception. Reuses its stack between calls: one instance per unwinding thread.
 */
public final class ExpressionEvaluator {
    public static final int MAX_STEPS = 10_000;
    public static final int MAX_STACK = 64;

    private final long[] stack = new long[MAX_STACK];
    private int sp;
    private byte[] code;
    private int pc;

    /**
     * Evaluates {@code expression}; for register rules the CFA is pushed first (DWARF 5,
     * 6.4.2.3), for the CFA rule itself nothing is ({@code cfa} is then ignored).
     */
    public long evaluate(DwarfExpression expression, UnwindContext context, boolean pushCfa, long cfa)
            throws EvaluationException {
        code = expression.code();
        pc = 0;
        sp = 0;
        if (pushCfa) push(cfa);
        for (int steps = 0; pc < code.length; steps++) {
            if (steps >= MAX_STEPS) throw new EvaluationException(LIMIT, "expression ran " + MAX_STEPS + " steps");
            step(context, pushCfa, cfa);
        }
        if (sp == 0) throw new EvaluationException(MALFORMED, "expression left an empty stack");
        return stack[sp - 1];
    }

    private void step(UnwindContext ctx, boolean hasCfa, long cfa) throws EvaluationException {
        int at = pc;
        int op = u8();
        if (op >= 0x30 && op <= 0x4f) {
            push(op - 0x30); // DW_OP_lit0..31
        } else if (op >= 0x70 && op <= 0x8f) {
            push(reg(ctx, op - 0x70) + sleb()); // DW_OP_breg0..31
        } else if (op >= 0x50 && op <= 0x6f || op == 0x90) {
            throw new EvaluationException(
                    MALFORMED, "register location op 0x" + Integer.toHexString(op) + " is not a value (at " + at + ")");
        } else {
            switch (op) {
                case 0x03 -> push(fixed(8)); // addr
                case 0x06 -> push(deref(ctx, pop(), 8));
                case 0x94 -> {
                    int size = u8();
                    if (size != 1 && size != 2 && size != 4 && size != 8) {
                        throw new EvaluationException(MALFORMED, "deref_size " + size);
                    }
                    push(deref(ctx, pop(), size));
                }
                case 0x08 -> push(fixed(1));
                case 0x09 -> push((byte) fixed(1));
                case 0x0a -> push(fixed(2));
                case 0x0b -> push((short) fixed(2));
                case 0x0c -> push(fixed(4));
                case 0x0d -> push((int) fixed(4));
                case 0x0e, 0x0f -> push(fixed(8));
                case 0x10 -> push(uleb());
                case 0x11 -> push(sleb());
                case 0x12 -> push(peek(0)); // dup
                case 0x13 -> pop(); // drop
                case 0x14 -> push(peek(1)); // over
                case 0x15 -> push(peek(u8())); // pick
                case 0x16 -> swap();
                case 0x17 -> rotate();
                case 0x19 -> push(Math.abs(pop()));
                case 0x1a -> binary(op);
                case 0x1b, 0x1d -> divide(op);
                case 0x1c, 0x1e, 0x21, 0x22, 0x24, 0x25, 0x26, 0x27 -> binary(op);
                case 0x1f -> push(-pop());
                case 0x20 -> push(~pop());
                case 0x23 -> push(pop() + uleb()); // plus_uconst
                case 0x28 -> branch(pop() != 0);
                case 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e -> compare(op);
                case 0x2f -> branch(true); // skip
                case 0x92 -> {
                    long r = uleb();
                    push(reg(ctx, r) + sleb()); // bregx
                }
                case 0x96 -> {} // nop
                case 0x9c -> {
                    if (!hasCfa) throw new EvaluationException(MALFORMED, "call_frame_cfa inside the CFA rule");
                    push(cfa);
                }
                default ->
                    throw new EvaluationException(
                            MALFORMED, "unsupported expression op 0x" + Integer.toHexString(op) + " at " + at);
            }
        }
    }

    private void binary(int op) throws EvaluationException {
        long b = pop(), a = pop();
        push(
                switch (op) {
                    case 0x1a -> a & b;
                    case 0x1c -> a - b;
                    case 0x1e -> a * b;
                    case 0x21 -> a | b;
                    case 0x22 -> a + b;
                    case 0x24 -> b >= 64 || b < 0 ? 0 : a << b;
                    case 0x25 -> b >= 64 || b < 0 ? 0 : a >>> b;
                    case 0x26 -> b >= 64 || b < 0 ? (a < 0 ? -1 : 0) : a >> b;
                    default -> a ^ b; // 0x27 xor
                });
    }

    private void divide(int op) throws EvaluationException {
        long b = pop(), a = pop();
        if (b == 0) throw new EvaluationException(MALFORMED, "division by zero");
        push(op == 0x1b ? a / b : Long.remainderUnsigned(a, b));
    }

    /** DWARF comparisons are signed. */
    private void compare(int op) throws EvaluationException {
        long b = pop(), a = pop();
        boolean r = switch (op) {
            case 0x29 -> a == b;
            case 0x2a -> a >= b;
            case 0x2b -> a > b;
            case 0x2c -> a <= b;
            case 0x2d -> a < b;
            default -> a != b;
        };
        push(r ? 1 : 0);
    }

    private void branch(boolean taken) throws EvaluationException {
        int offset = (short) fixed(2);
        if (!taken) return;
        int target = pc + offset;
        if (target < 0 || target > code.length) {
            throw new EvaluationException(MALFORMED, "branch to " + target + " outside the expression");
        }
        pc = target;
    }

    private static long reg(UnwindContext ctx, long r) throws EvaluationException {
        if (r < 0 || r >= X86Registers.COUNT || !ctx.registerKnown((int) r)) {
            throw new EvaluationException(
                    REGISTER_UNKNOWN, "expression needs " + X86Registers.name((int) r) + ", whose value is not known");
        }
        return ctx.register((int) r);
    }

    private static long deref(UnwindContext ctx, long address, int size) throws EvaluationException {
        if (!ctx.readable(address, size)) {
            throw new EvaluationException(
                    MEMORY_UNAVAILABLE,
                    "expression reads 0x" + Long.toHexString(address) + ", outside the stack snapshot");
        }
        return ctx.read(address, size);
    }

    private void push(long v) throws EvaluationException {
        if (sp == MAX_STACK) throw new EvaluationException(LIMIT, "expression stack over " + MAX_STACK + " entries");
        stack[sp++] = v;
    }

    private long pop() throws EvaluationException {
        if (sp == 0) throw new EvaluationException(MALFORMED, "expression stack underflow");
        return stack[--sp];
    }

    private long peek(int depth) throws EvaluationException {
        if (depth < 0 || depth >= sp) throw new EvaluationException(MALFORMED, "pick/over below the stack bottom");
        return stack[sp - 1 - depth];
    }

    private void swap() throws EvaluationException {
        long b = pop(), a = pop();
        push(b);
        push(a);
    }

    private void rotate() throws EvaluationException {
        long top = pop(), second = pop(), third = pop();
        push(top);
        push(third);
        push(second);
    }

    private int u8() throws EvaluationException {
        if (pc >= code.length) throw new EvaluationException(MALFORMED, "expression ends inside an operand");
        return code[pc++] & 0xff;
    }

    private long fixed(int size) throws EvaluationException {
        long v = 0;
        for (int i = 0; i < size; i++) v |= (long) u8() << (8 * i);
        return v;
    }

    private long uleb() throws EvaluationException {
        long result = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            int b = u8();
            if (shift < 64) result |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) return result;
        }
        throw new EvaluationException(MALFORMED, "LEB128 operand too long");
    }

    private long sleb() throws EvaluationException {
        long result = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            int b = u8();
            if (shift < 64) result |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                if (shift + 7 < 64 && (b & 0x40) != 0) result |= -1L << (shift + 7);
                return result;
            }
        }
        throw new EvaluationException(MALFORMED, "LEB128 operand too long");
    }
}
