package org.ompprof.unwinder.stack;

import static org.ompprof.unwinder.cfi.X86Registers.COUNT;
import static org.ompprof.unwinder.cfi.X86Registers.RIP;
import static org.ompprof.unwinder.cfi.X86Registers.RSP;

import org.ompprof.unwinder.cfi.CfaRule;
import org.ompprof.unwinder.cfi.EvaluationException;
import org.ompprof.unwinder.cfi.ExpressionEvaluator;
import org.ompprof.unwinder.cfi.RegisterRule;
import org.ompprof.unwinder.cfi.RuleKind;
import org.ompprof.unwinder.cfi.UnwindRow;
import org.ompprof.unwinder.cfi.X86Registers;

/**
 * Applies one CFI row: computes the CFA from the current registers, then every caller register
 * from its rule. Registers other than the return address and the stack pointer may fail to be
 * recovered without ending the walk (they just become unknown); those two may not. Reuses its
 * buffers, so a step allocates nothing unless it fails.
 */
final class CfiStep {
    private final ExpressionEvaluator evaluator = new ExpressionEvaluator();
    private final long[] next = new long[COUNT];
    private StepOutcome failure;
    private String detail;
    private long value;

    /** Why the last step did not continue. */
    String detail() {
        return detail;
    }

    StepOutcome apply(UnwindRow row, UnwindState state) {
        long cfa;
        if (!computeCfa(row.cfa(), state)) return failure;
        cfa = value;
        state.copyTo(next);
        int known = state.knownMask();
        // Without a rule, the caller's stack pointer is the CFA (that is what the CFA is defined to be).
        next[RSP] = cfa;
        known |= 1 << RSP;
        int ra = row.returnAddressRegister();
        RuleKind raKind = row.rule(ra).kind();
        if (raKind == RuleKind.UNDEFINED) return StepOutcome.OUTERMOST;
        if (raKind == RuleKind.UNSPECIFIED || raKind == RuleKind.SAME_VALUE) {
            return fail(StepOutcome.ERROR, "no rule for the return address column " + X86Registers.name(ra));
        }
        for (int i = 0; i < row.specifiedCount(); i++) {
            int r = row.specifiedRegister(i);
            if (recover(row.rule(r), cfa, state)) {
                next[r] = value;
                known |= 1 << r;
            } else if (r == ra || r == RSP) {
                return failure;
            } else {
                known &= ~(1 << r);
            }
        }
        if (!row.signalFrame() && Long.compareUnsigned(next[RSP], state.sp()) <= 0) {
            return fail(
                    StepOutcome.ERROR,
                    "stack pointer did not increase (0x" + Long.toHexString(state.sp()) + " -> 0x"
                            + Long.toHexString(next[RSP]) + ")");
        }
        next[RIP] = next[ra];
        state.load(next, known | 1 << RIP);
        return StepOutcome.CONTINUE;
    }

    private boolean computeCfa(CfaRule rule, UnwindState state) {
        if (rule.isExpression()) return evaluate(rule, state);
        int r = rule.register();
        if (!state.registerKnown(r)) {
            fail(StepOutcome.ERROR, "CFA is based on " + X86Registers.name(r) + ", whose value is not known");
            return false;
        }
        value = state.register(r) + rule.offset();
        return true;
    }

    private boolean evaluate(CfaRule rule, UnwindState state) {
        try {
            value = evaluator.evaluate(rule.expression(), state, false, 0);
            return true;
        } catch (EvaluationException e) {
            fail(e, "CFA expression");
            return false;
        }
    }

    /** The caller's value of a register under {@code rule}, into {@link #value}; false if not recoverable. */
    private boolean recover(RegisterRule rule, long cfa, UnwindState state) {
        switch (rule.kind()) {
            case OFFSET -> {
                return load(cfa + rule.offset(), state);
            }
            case VAL_OFFSET -> value = cfa + rule.offset();
            case REGISTER -> {
                if (!state.registerKnown(rule.register())) {
                    fail(
                            StepOutcome.ERROR,
                            "rule copies " + X86Registers.name(rule.register()) + ", which is not known");
                    return false;
                }
                value = state.register(rule.register());
            }
            case EXPRESSION, VAL_EXPRESSION -> {
                try {
                    value = evaluator.evaluate(rule.expression(), state, true, cfa);
                } catch (EvaluationException e) {
                    fail(e, "register expression");
                    return false;
                }
                if (rule.kind() == RuleKind.EXPRESSION) return load(value, state);
            }
            default -> {
                fail(StepOutcome.ERROR, "register is undefined");
                return false;
            }
        }
        return true;
    }

    private boolean load(long address, UnwindState state) {
        if (!state.readable(address, 8)) {
            fail(
                    StepOutcome.TRUNCATED,
                    "saved register at 0x" + Long.toHexString(address) + " lies outside the snapshot");
            return false;
        }
        value = state.read(address, 8);
        return true;
    }

    private void fail(EvaluationException e, String what) {
        fail(
                e.kind() == EvaluationException.Kind.MEMORY_UNAVAILABLE ? StepOutcome.TRUNCATED : StepOutcome.ERROR,
                what + ": " + e.getMessage());
    }

    private StepOutcome fail(StepOutcome outcome, String why) {
        failure = outcome;
        detail = why;
        return outcome;
    }
}
