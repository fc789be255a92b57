package org.ompprof.unwinder.cfi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExpressionEvaluatorTest {
    private static final long RSP = 0x7ffd_0000_1000L;

    /** Registers by number and {@code memory} bytes at RSP holding 0x1000 + i at RSP + 8i. */
    static final class Context implements UnwindContext {
        final Map<Integer, Long> registers = new HashMap<>();
        int memory = 64;

        Context() {
            registers.put(X86Registers.RSP, RSP);
        }

        @Override
        public boolean registerKnown(int register) {
            return registers.containsKey(register);
        }

        @Override
        public long register(int register) {
            return registers.get(register);
        }

        @Override
        public boolean readable(long address, int size) {
            return address >= RSP && address + size <= RSP + memory;
        }

        @Override
        public long read(long address, int size) {
            long word = 0x1000 + (address - RSP) / 8;
            return size == 8 ? word : word & ((1L << (8 * size)) - 1);
        }
    }

    private final ExpressionEvaluator evaluator = new ExpressionEvaluator();
    private final Context context = new Context();

    private long eval(int... code) throws EvaluationException {
        return evaluator.evaluate(new DwarfExpression(ByteSink.of(code)), context, false, 0);
    }

    private EvaluationException.Kind failure(int... code) {
        return assertThrows(EvaluationException.class, () -> eval(code)).kind();
    }

    @ParameterizedTest(name = "rip & 15 = {0}")
    @CsvSource({"0, 8", "6, 8", "10, 8", "11, 16", "15, 16"})
    void pltCfaRule(int low, long cfaOffset) throws EvaluationException {
        context.registers.put(X86Registers.RIP, 0x401020L + low);
        // breg7 8; breg16 0; lit15; and; lit11; ge; lit3; shl; plus
        assertEquals(RSP + cfaOffset, eval(0x77, 0x08, 0x80, 0x00, 0x3f, 0x1a, 0x3b, 0x2a, 0x33, 0x24, 0x22));
    }

    @Test
    void signalTrampolineRules() throws EvaluationException {
        // CFA: breg7 160; deref.  RIP: breg7 168 (an address; the caller reads it).
        context.memory = 256;
        assertEquals(0x1000 + 20, eval(0x77, 0xa0, 0x01, 0x06));
        assertEquals(RSP + 168, eval(0x77, 0xa8, 0x01));
    }

    @Test
    void constantsAndArithmetic() throws EvaluationException {
        assertEquals(31, eval(0x4f));
        assertEquals(0xff, eval(0x08, 0xff));
        assertEquals(-1, eval(0x09, 0xff));
        assertEquals(0xfffe, eval(0x0a, 0xfe, 0xff));
        assertEquals(-2, eval(0x0b, 0xfe, 0xff));
        assertEquals(0xfffffffeL, eval(0x0c, 0xfe, 0xff, 0xff, 0xff));
        assertEquals(-2, eval(0x0d, 0xfe, 0xff, 0xff, 0xff));
        assertEquals(0x0102030405060708L, eval(0x0e, 8, 7, 6, 5, 4, 3, 2, 1));
        assertEquals(624485, eval(0x10, 0xe5, 0x8e, 0x26));
        assertEquals(-123456, eval(0x11, 0xc0, 0xbb, 0x78));
        assertEquals(7, eval(0x35, 0x32, 0x22)); // 5 + 2
        assertEquals(3, eval(0x35, 0x32, 0x1c)); // 5 - 2
        assertEquals(10, eval(0x35, 0x32, 0x1e)); // 5 * 2
        assertEquals(0x1005, eval(0x35, 0x23, 0x80, 0x20)); // plus_uconst 0x1000
        assertEquals(1, eval(0x35, 0x33, 0x1a)); // 5 & 3
        assertEquals(7, eval(0x35, 0x33, 0x21)); // 5 | 3
        assertEquals(6, eval(0x35, 0x33, 0x27)); // 5 ^ 3
        assertEquals(20, eval(0x35, 0x32, 0x24)); // 5 << 2
        assertEquals(-1, eval(0x31, 0x1f, 0x31, 0x26)); // -1 >>a 1
        assertEquals(Long.MAX_VALUE, eval(0x31, 0x1f, 0x31, 0x25)); // -1 >>> 1
        assertEquals(-6, eval(0x35, 0x20)); // ~5
        assertEquals(2, eval(0x35, 0x32, 0x1b)); // 5 / 2
        assertEquals(1, eval(0x35, 0x32, 0x1d)); // 5 mod 2
        assertEquals(5, eval(0x35, 0x1f, 0x19)); // abs(-5)
    }

    @Test
    void stackOperations() throws EvaluationException {
        assertEquals(10, eval(0x35, 0x12, 0x22)); // dup plus
        assertEquals(1, eval(0x31, 0x32, 0x13)); // drop
        assertEquals(1, eval(0x31, 0x32, 0x14)); // over
        assertEquals(1, eval(0x31, 0x32, 0x33, 0x15, 0x02)); // pick 2
        assertEquals(1, eval(0x31, 0x32, 0x16)); // swap
        assertEquals(2, eval(0x31, 0x32, 0x33, 0x17)); // rot: 1 2 3 -> 3 1 2
        assertEquals(3, eval(0x33, 0x96)); // nop
    }

    @Test
    void comparisonsAreSigned() throws EvaluationException {
        assertEquals(1, eval(0x31, 0x1f, 0x30, 0x2d)); // -1 < 0
        assertEquals(0, eval(0x31, 0x1f, 0x30, 0x2b)); // -1 > 0
        assertEquals(1, eval(0x32, 0x32, 0x29)); // eq
        assertEquals(0, eval(0x32, 0x32, 0x2e)); // ne
        assertEquals(1, eval(0x32, 0x32, 0x2c)); // le
        assertEquals(1, eval(0x33, 0x32, 0x2a)); // ge
    }

    @Test
    void branches() throws EvaluationException {
        assertEquals(9, eval(0x2f, 0x01, 0x00, 0x35, 0x39)); // skip over lit5
        assertEquals(2, eval(0x31, 0x28, 0x01, 0x00, 0x31, 0x32)); // taken: lit1 skipped
        assertEquals(2, eval(0x30, 0x28, 0x01, 0x00, 0x32)); // not taken
    }

    @Test
    void registersAndMemory() throws EvaluationException {
        assertEquals(RSP + 16, eval(0x77, 0x10));
        assertEquals(RSP - 8, eval(0x92, 0x07, 0x78)); // bregx rsp -8
        assertEquals(0x1002, eval(0x77, 0x10, 0x06)); // deref
        assertEquals(0x02, eval(0x77, 0x10, 0x94, 0x01)); // deref_size 1
        assertEquals(RSP + 4, evaluator.evaluate(new DwarfExpression(ByteSink.of(0x34, 0x22)), context, true, RSP));
    }

    @Test
    void failuresAreClassified() {
        assertEquals(EvaluationException.Kind.MEMORY_UNAVAILABLE, failure(0x77, 0x40, 0x06));
        assertEquals(EvaluationException.Kind.REGISTER_UNKNOWN, failure(0x73, 0x00));
        assertEquals(EvaluationException.Kind.MALFORMED, failure(0x22));
        assertEquals(EvaluationException.Kind.MALFORMED, failure(0x0e, 0x01));
        assertEquals(EvaluationException.Kind.MALFORMED, failure(0x31, 0x30, 0x1b));
        assertEquals(EvaluationException.Kind.MALFORMED, failure(0x2f, 0x10, 0x00));
        assertEquals(EvaluationException.Kind.MALFORMED, failure(0x57)); // DW_OP_reg7 is a location
        assertEquals(EvaluationException.Kind.MALFORMED, failure(0xe0)); // vendor op
        assertEquals(EvaluationException.Kind.MALFORMED, failure());
        assertEquals(EvaluationException.Kind.MALFORMED, failure(0x9c)); // call_frame_cfa in the CFA rule
    }

    @Test
    void loopsAndDeepStacksAreBounded() {
        assertEquals(EvaluationException.Kind.LIMIT, failure(0x2f, 0xfd, 0xff)); // skip -3: itself, forever
        int[] pushes = new int[ExpressionEvaluator.MAX_STACK + 1];
        java.util.Arrays.fill(pushes, 0x31);
        assertEquals(EvaluationException.Kind.LIMIT, failure(pushes));
    }
}
