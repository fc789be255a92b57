package org.ompprof.unwinder.cfi;

import java.util.ArrayDeque;

/**
 * Runs a CIE's initial instructions and then an FDE's instructions up to a pc, yielding the
 * row that applies there (DWARF 5, 6.4.2). Bounded in instructions and in remembered states,
 * so damaged programs end in {@link CfiFormatException}.
 */
final class CfaInterpreter {
    static final int MAX_INSTRUCTIONS = 100_000;
    static final int MAX_STATE_DEPTH = 64;
    private static final int MAX_REGISTER = 0xffff;

    private final CfiSection section;
    private final Fde fde;
    private final Cie cie;
    private final long target;
    private final RuleTable table = new RuleTable();
    private final ArrayDeque<RuleTable> remembered = new ArrayDeque<>();
    private RuleTable initial;
    private long location;
    private long rowEnd;
    private boolean reachedTarget;
    private int executed;

    private CfaInterpreter(CfiSection section, Fde fde, long target) {
        this.section = section;
        this.fde = fde;
        this.cie = fde.cie();
        this.target = target;
        this.location = fde.pcBegin();
        this.rowEnd = fde.pcEnd();
    }

    /** The row of {@code fde} at {@code pc}, which the FDE must cover. */
    static UnwindRow rowAt(CfiSection section, Fde fde, long pc) {
        if (!fde.covers(pc)) throw new IllegalArgumentException("FDE does not cover 0x" + Long.toHexString(pc));
        CfaInterpreter run = new CfaInterpreter(section, fde, pc);
        run.execute(section.cursor(fde.cie().instructionsStart(), fde.cie().instructionsEnd()));
        run.initial = run.table.copy();
        if (!run.reachedTarget) run.execute(section.cursor(fde.instructionsStart(), fde.instructionsEnd()));
        return run.row();
    }

    private UnwindRow row() {
        int ra = cie.returnAddressRegister();
        if (ra >= X86Registers.COUNT) {
            throw new CfiFormatException("return address column " + ra + " is not an x86-64 register", cie.offset());
        }
        if (table.cfa == CfaRule.NONE)
            throw new CfiFormatException("no CFA rule at 0x" + Long.toHexString(target), fde.offset());
        return new UnwindRow(location, rowEnd, table.cfa, table.rules, ra, cie.signalFrame(), section.origin());
    }

    private void execute(DwarfCursor c) {
        while (!c.atEnd() && !reachedTarget) {
            if (++executed > MAX_INSTRUCTIONS)
                throw c.error("more than " + MAX_INSTRUCTIONS + " CFA instructions", c.position());
            int at = c.position();
            int op = c.u8();
            switch (op >>> 6) {
                case 1 -> advance((op & 0x3f) * cie.codeAlignment());
                case 2 -> table.set(op & 0x3f, RegisterRule.offset(RuleKind.OFFSET, factored(c, c.uleb(), at)));
                case 3 -> restore(op & 0x3f);
                default -> extended(c, op, at);
            }
        }
    }

    private void extended(DwarfCursor c, int op, int at) {
        switch (op) {
            case 0x00 -> {} // nop
            case 0x01 -> setLocation(c, at);
            case 0x02 -> advance(c.u8() * cie.codeAlignment());
            case 0x03 -> advance(c.u16() * cie.codeAlignment());
            case 0x04 -> advance(c.u32() * cie.codeAlignment());
            case 0x05 -> {
                long r = register(c);
                table.set(r, RegisterRule.offset(RuleKind.OFFSET, factored(c, c.uleb(), at)));
            }
            case 0x06 -> restore(register(c));
            case 0x07 -> table.set(register(c), RegisterRule.UNDEFINED);
            case 0x08 -> table.set(register(c), RegisterRule.SAME_VALUE);
            case 0x09 -> {
                long r = register(c);
                table.set(r, RegisterRule.register((int) register(c)));
            }
            case 0x0a -> remember(c, at);
            case 0x0b -> restoreState(c, at);
            case 0x0c -> {
                long r = register(c);
                table.cfa = new CfaRule((int) r, unsigned(c, at), null);
            }
            case 0x0d -> defCfaRegister(c, (int) register(c), at);
            case 0x0e -> defCfaOffset(c, unsigned(c, at), at);
            case 0x0f -> table.cfa = new CfaRule(-1, 0, block(c));
            case 0x10 -> {
                long r = register(c);
                table.set(r, RegisterRule.expression(RuleKind.EXPRESSION, block(c)));
            }
            case 0x11 -> {
                long r = register(c);
                table.set(r, RegisterRule.offset(RuleKind.OFFSET, factoredSigned(c, c.sleb(), at)));
            }
            case 0x12 -> {
                long r = register(c);
                table.cfa = new CfaRule((int) r, factoredSigned(c, c.sleb(), at), null);
            }
            case 0x13 -> defCfaOffset(c, factoredSigned(c, c.sleb(), at), at);
            case 0x14 -> {
                long r = register(c);
                table.set(r, RegisterRule.offset(RuleKind.VAL_OFFSET, factored(c, c.uleb(), at)));
            }
            case 0x15 -> {
                long r = register(c);
                table.set(r, RegisterRule.offset(RuleKind.VAL_OFFSET, factoredSigned(c, c.sleb(), at)));
            }
            case 0x16 -> {
                long r = register(c);
                table.set(r, RegisterRule.expression(RuleKind.VAL_EXPRESSION, block(c)));
            }
            case 0x2e -> c.uleb(); // GNU_args_size: only matters when resuming into a landing pad
            case 0x2f -> {
                long r = register(c);
                table.set(r, RegisterRule.offset(RuleKind.OFFSET, -factored(c, c.uleb(), at)));
            }
            default -> throw c.error("unsupported call frame instruction 0x" + Integer.toHexString(op), at);
        }
    }

    private void advance(long delta) {
        moveTo(location + delta);
    }

    private void setLocation(DwarfCursor c, int at) {
        long to = section.origin() == CfiOrigin.EH_FRAME
                ? PointerEncoding.read(c, cie.fdeEncoding(), section.bases())
                : c.unsigned(cie.addressSize());
        if (to < location) throw c.error("DW_CFA_set_loc moves backwards", at);
        moveTo(to);
    }

    /** A new row starts at {@code to}: if that is past the target, the current row is the answer. */
    private void moveTo(long to) {
        if (to > target) {
            rowEnd = Math.min(to, fde.pcEnd());
            reachedTarget = true;
        } else {
            location = to;
        }
    }

    private void restore(long register) {
        table.set(register, initial == null ? RegisterRule.UNSPECIFIED : initial.get(register));
    }

    private void remember(DwarfCursor c, int at) {
        if (remembered.size() >= MAX_STATE_DEPTH) throw c.error("remember_state nested over " + MAX_STATE_DEPTH, at);
        remembered.push(table.copy());
    }

    private void restoreState(DwarfCursor c, int at) {
        RuleTable saved = remembered.poll();
        if (saved == null) throw c.error("restore_state without remember_state", at);
        table.cfa = saved.cfa;
        System.arraycopy(saved.rules, 0, table.rules, 0, table.rules.length);
    }

    private void defCfaRegister(DwarfCursor c, int register, int at) {
        if (table.cfa.isExpression() || table.cfa == CfaRule.NONE)
            throw c.error("def_cfa_register without a register CFA", at);
        table.cfa = new CfaRule(register, table.cfa.offset(), null);
    }

    private void defCfaOffset(DwarfCursor c, long offset, int at) {
        if (table.cfa.isExpression() || table.cfa == CfaRule.NONE)
            throw c.error("def_cfa_offset without a register CFA", at);
        table.cfa = new CfaRule(table.cfa.register(), offset, null);
    }

    private static long register(DwarfCursor c) {
        int at = c.position();
        long r = c.uleb();
        if (r < 0 || r > MAX_REGISTER) throw c.error("register number " + Long.toUnsignedString(r), at);
        return r;
    }

    private static long unsigned(DwarfCursor c, int at) {
        long v = c.uleb();
        if (v < 0) throw c.error("offset " + Long.toUnsignedString(v) + " out of range", at);
        return v;
    }

    private long factored(DwarfCursor c, long value, int at) {
        if (value < 0) throw c.error("offset " + Long.toUnsignedString(value) + " out of range", at);
        return factoredSigned(c, value, at);
    }

    private long factoredSigned(DwarfCursor c, long value, int at) {
        try {
            return Math.multiplyExact(value, cie.dataAlignment());
        } catch (ArithmeticException e) {
            throw c.error("factored offset overflows", at);
        }
    }

    private static DwarfExpression block(DwarfCursor c) {
        return new DwarfExpression(c.bytes(c.uleb()));
    }
}
