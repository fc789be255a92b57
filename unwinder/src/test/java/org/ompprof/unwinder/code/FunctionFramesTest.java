package org.ompprof.unwinder.code;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.unwinder.cfi.NoCfi;
import org.ompprof.unwinder.cfi.RowResult;
import org.ompprof.unwinder.cfi.UnwindRow;

/** Frame states read from hand-assembled functions, instruction by instruction (as llvm-dwarfdump prints rows). */
class FunctionFramesTest {
    private static final long AT = 0x1000;

    /** crt's __do_global_dtors_aux: a test and early return before its frame, then push rbp / mov rbp, rsp. */
    @Test
    void globalDestructorsOfCrt() {
        FunctionFrames f = FunctionFrames.of(
                AT,
                code(
                        "f30f1efa", // 0  endbr64
                        "803d0000000000", // 4  cmpb $0, x(%rip)
                        "7527", // b  jne 0x34 (the early ret)
                        "55", // d  push rbp
                        "48833d0000000000", // e  cmpq $0, x(%rip)
                        "4889e5", // 16 mov rbp, rsp
                        "740c", // 19 je 0x27
                        "488b3d00000000", // 1b mov x(%rip), rdi
                        "e800000000", // 22 call
                        "e800000000", // 27 call
                        "c60500000000" + "01", // 2c movb $1, x(%rip)
                        "5d", // 33 pop rbp
                        "c3", // 34 ret (reached from 0x33 falling through, and from jne: both with CFA=RSP+8)
                        "c3")); // 35 (not reached)
        assertRow(f, 0x0, "CFA=RSP+8: RIP=[CFA-8]");
        assertRow(f, 0xd, "CFA=RSP+8: RIP=[CFA-8]");
        assertRow(f, 0xe, "CFA=RSP+16: RBP=[CFA-16], RIP=[CFA-8]");
        assertRow(f, 0x27, "CFA=RSP+16: RBP=[CFA-16], RIP=[CFA-8]");
        assertRow(f, 0x33, "CFA=RSP+16: RBP=[CFA-16], RIP=[CFA-8]");
        assertRow(f, 0x34, "CFA=RSP+8: RIP=[CFA-8]");
        assertInstanceOf(NoCfi.class, f.rowFor(AT + 0x35));
        assertInstanceOf(NoCfi.class, f.rowFor(AT + 0x36), "past the function");
    }

    /** A shrink-wrapped function: the early exit's ret is reached before the stack is reserved. */
    @Test
    void shrinkWrappedEarlyReturn() {
        FunctionFrames f = FunctionFrames.of(
                AT,
                code(
                        "4885ff", // 0  test rdi, rdi
                        "7e10", // 3  jle 0x15
                        "4881ec88010000", // 5  sub rsp, 0x188
                        "90", // c  nop
                        "4881c488010000", // d  add rsp, 0x188
                        "c3", // 14 ret
                        "c3")); // 15 ret
        assertRow(f, 0xc, "CFA=RSP+400: RIP=[CFA-8]");
        assertRow(f, 0x14, "CFA=RSP+8: RIP=[CFA-8]");
        assertRow(f, 0x15, "CFA=RSP+8: RIP=[CFA-8]");
    }

    /** rbp as frame pointer, the stack aligned: only rbp says where the CFA is; leave restores both. */
    @Test
    void alignedFrameNeedsRbp() {
        FunctionFrames f = FunctionFrames.of(
                AT,
                code(
                        "55", // 0 push rbp
                        "4889e5", // 1 mov rbp, rsp
                        "4883e4e0", // 4 and rsp, -32
                        "4883ec40", // 8 sub rsp, 64
                        "e800000000", // c call
                        "c9", // 11 leave
                        "c3")); // 12 ret
        assertRow(f, 0x4, "CFA=RSP+16: RBP=[CFA-16], RIP=[CFA-8]");
        assertRow(f, 0x8, "CFA=RBP+16: RBP=[CFA-16], RIP=[CFA-8]");
        assertRow(f, 0xc, "CFA=RBP+16: RBP=[CFA-16], RIP=[CFA-8]");
        assertRow(f, 0x11, "CFA=RBP+16: RBP=[CFA-16], RIP=[CFA-8]");
        assertRow(f, 0x12, "CFA=RSP+8: RIP=[CFA-8]");
    }

    /** Callee-saved registers pushed get their slots; popping them in the epilogue takes the rules away. */
    @Test
    void pushedRegistersAreSaved() {
        FunctionFrames f = FunctionFrames.of(
                AT,
                code(
                        "53", // 0 push rbx
                        "4154", // 1 push r12
                        "4883ec28", // 3 sub rsp, 40
                        "e800000000", // 7 call
                        "4883c428", // c add rsp, 40
                        "415c", // 10 pop r12
                        "5b", // 12 pop rbx
                        "c3")); // 13 ret
        assertRow(f, 0x7, "CFA=RSP+64: RBX=[CFA-16], R12=[CFA-24], RIP=[CFA-8]");
        assertRow(f, 0x12, "CFA=RSP+16: RBX=[CFA-16], RIP=[CFA-8]");
        assertRow(f, 0x13, "CFA=RSP+8: RIP=[CFA-8]");
    }

    /** Segment pushes and pops move the stack as any push and pop do. */
    @Test
    void segmentPushesMoveTheStack() {
        FunctionFrames f = FunctionFrames.of(
                AT,
                code(
                        "0fa0", // 0 push fs
                        "0fa8", // 2 push gs
                        "0fa9", // 4 pop gs
                        "0fa1", // 6 pop fs
                        "c3")); // 8 ret
        assertRow(f, 0x4, "CFA=RSP+24: RIP=[CFA-8]");
        assertRow(f, 0x8, "CFA=RSP+8: RIP=[CFA-8]");
    }

    /** Two paths into one instruction with different stacks: nothing known from there, not a guess. */
    @Test
    void pathsThatDisagreeGiveNoRow() {
        FunctionFrames f = FunctionFrames.of(
                AT,
                code(
                        "85ff", // 0 test edi, edi
                        "7401", // 2 je 0x5
                        "53", // 4 push rbx
                        "90", // 5 nop: RSP+8 from je, RSP+16 from the push
                        "c3")); // 6 ret
        assertRow(f, 0x4, "CFA=RSP+8: RIP=[CFA-8]");
        assertInstanceOf(NoCfi.class, f.rowFor(AT + 0x5));
        assertInstanceOf(NoCfi.class, f.rowFor(AT + 0x6));
    }

    /** A stack pointer set from a register: unknown from there (no rbp frame to fall back on). */
    @Test
    void stackPointerFromAnotherRegisterIsUnknown() {
        FunctionFrames f = FunctionFrames.of(
                AT,
                code(
                        "4889fc", // 0 mov rsp, rdi
                        "c3")); // 3 ret
        assertRow(f, 0x0, "CFA=RSP+8: RIP=[CFA-8]");
        assertInstanceOf(NoCfi.class, f.rowFor(AT + 0x3));
    }

    /** A return address's lookup pc lies inside the call: the state before the call stands for it. */
    @Test
    void aPcInsideAnInstructionTakesItsRow() {
        FunctionFrames f = FunctionFrames.of(AT, code("4883ec18", "e800000000", "4883c418", "c3"));
        RowResult r = f.rowFor(AT + 4 + 4); // return address 0x1009, looked up at 0x1008
        assertEquals(
                "CFA=RSP+32: RIP=[CFA-8]", assertInstanceOf(UnwindRow.class, r).describe());
    }

    /** Random bytes never throw, and every row they give has a CFA at least 8 above the stack pointer. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void randomCodeNeverThrows(long seed) {
        Random random = new Random(seed);
        for (int round = 0; round < 200; round++) {
            byte[] bytes = new byte[1 + random.nextInt(400)];
            random.nextBytes(bytes);
            FunctionFrames f = FunctionFrames.of(AT, bytes);
            for (int k = 0; k < f.count(); k++) {
                FrameState s = f.stateAt(k);
                if (s != null) assertTrue(s.cfaLessRsp() == FrameState.UNKNOWN || s.cfaLessRsp() >= 8, s.toString());
            }
            for (int pc = 0; pc < bytes.length + 2; pc++) assertNotNull(f.rowFor(AT + pc));
        }
    }

    private static void assertRow(FunctionFrames f, int offset, String expected) {
        RowResult r = f.rowFor(AT + offset);
        UnwindRow row = assertInstanceOf(UnwindRow.class, r, "at +0x" + Integer.toHexString(offset) + ": " + r);
        assertEquals(expected, row.describe(), "at +0x" + Integer.toHexString(offset));
    }

    private static byte[] code(String... hex) {
        return HexFormat.of().parseHex(String.join("", hex));
    }
}
