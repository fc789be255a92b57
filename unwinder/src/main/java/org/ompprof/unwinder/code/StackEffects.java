package org.ompprof.unwinder.code;

import static org.ompprof.unwinder.cfi.X86Registers.RBP;
import static org.ompprof.unwinder.cfi.X86Registers.RBX;
import static org.ompprof.unwinder.cfi.X86Registers.RSP;

import org.ompprof.unwinder.x86.X86Instruction;

/**
 * What one instruction does to a {@link FrameState}: the pushes, pops and stack adjustments of prologues and
 * epilogues, a copy of rsp made a frame register ({@code mov rbp, rsp}, OpenBLAS's {@code mov rbx, rsp}) and rsp set
 * back from it, {@code leave}, callee-saved registers stored to and loaded from the frame, and any other write to
 * rsp, the frame register or a callee-saved register, which compilers and assembly programmers make with a few dozen
 * general-purpose forms. Vector instructions write no such register. Calls leave the frame as it was: the callee
 * returns what it pushed.
 */
final class StackEffects {
    /** DWARF numbers of the registers the x86 encoding numbers 0-15. */
    private static final int[] DWARF = {0, 2, 1, 3, 7, 6, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15};

    private static final int GROUP1_ADD = 0, GROUP1_SUB = 5, GROUP1_CMP = 7;
    private static final int NO_INDEX = 4, MODRM_RM_RBP = 5;

    private StackEffects() {}

    /** The state after {@code i} runs in state {@code s} (the same for its fall-through and its branch). */
    static FrameState after(FrameState s, X86Instruction i) {
        if ((i.prefixes() & (X86Instruction.VEX | X86Instruction.EVEX)) != 0) return s;
        return switch (i.map()) {
            case 0 -> oneByte(s, i);
            case 1 -> twoByte(s, i);
            default -> s; // 0F 38 and 0F 3A: SSE and a few GPR forms (movbe, crc32, adx) no code points at rsp
        };
    }

    private static FrameState oneByte(FrameState s, X86Instruction i) {
        int op = i.opcode();
        if (op < 0x40) return arithmetic(s, i);
        if (op >= 0x50 && op <= 0x57) return sized16(i) ? s.withRsp(FrameState.UNKNOWN) : s.pushed(plusReg(i));
        if (op >= 0x58 && op <= 0x5f) return sized16(i) ? s.withRsp(FrameState.UNKNOWN) : s.popped(plusReg(i));
        if (op >= 0x91 && op <= 0x97) return s.clobbered(plusReg(i)); // xchg rax, reg
        if (op >= 0xb8 && op <= 0xbf) return s.clobbered(plusReg(i)); // mov reg, imm
        return switch (op) {
            case 0x68, 0x6a, 0x9c -> s.pushed(-1); // push imm, pushf
            case 0x9d -> s.rspMoved(8); // popf
            case 0x63, 0x69, 0x6b -> s.clobbered(reg(i)); // movsxd, imul reg
            case 0x80, 0x81, 0x83 -> group1(s, i);
            case 0x86, 0x87 -> i.mod() == 3 ? s.clobbered(reg(i)).clobbered(rm(i)) : s.clobbered(reg(i));
            case 0x88 -> i.mod() == 3 ? s.clobbered(rm(i)) : s;
            case 0x89 -> i.mod() == 3 ? move(s, rm(i), reg(i), i.rexW()) : store(s, i);
            case 0x8a -> s.clobbered(reg(i));
            case 0x8b -> i.mod() == 3 ? move(s, reg(i), rm(i), i.rexW()) : load(s, i);
            case 0x8d -> lea(s, i);
            case 0x8f -> i.mod() == 3 ? s.popped(rm(i)) : s.rspMoved(8);
            case 0xc0, 0xc1, 0xd0, 0xd1, 0xd2, 0xd3 -> registerOperand(s, i); // shifts and rotates
            case 0xc6, 0xc7 -> registerOperand(s, i); // mov r/m, imm
            case 0xc8 -> enter(s, i);
            case 0xc9 -> leave(s);
            case 0xe8 -> s.called();
            case 0xf6, 0xf7 -> extension(i) == 2 || extension(i) == 3 ? registerOperand(s, i) : s; // not, neg
            case 0xfe -> extension(i) <= 1 ? registerOperand(s, i) : s; // inc, dec (byte)
            case 0xff -> group5(s, i);
            default -> s;
        };
    }

    /** 00-3F: add, or, adc, sbb, and, sub, xor (cmp writes nothing); r/m or reg destination by the low bits. */
    private static FrameState arithmetic(FrameState s, X86Instruction i) {
        int op = i.opcode(), form = op & 7, kind = op >> 3;
        if (form > 3 || kind == GROUP1_CMP) return s; // al/eax forms, prefixes' slots, cmp
        boolean toRm = form <= 1;
        if (toRm && i.mod() != 3) return s;
        return s.clobbered(toRm ? rm(i) : reg(i));
    }

    /** 80/81/83: add and sub of an immediate move rsp; cmp writes nothing; anything else leaves it unknown. */
    private static FrameState group1(FrameState s, X86Instruction i) {
        int ext = extension(i);
        if (i.mod() != 3 || ext == GROUP1_CMP) return s;
        int dst = rm(i);
        if (dst == RSP && i.rexW() && i.opcode() != 0x80) {
            if (ext == GROUP1_ADD) return s.rspMoved(i.immediate());
            if (ext == GROUP1_SUB) return s.rspMoved(-i.immediate());
        }
        return s.clobbered(dst);
    }

    /**
     * mov between registers: a copy of rsp makes a frame register (rbp always; another register only while there is
     * none, so that a frame pointer outlives copies of rsp taken for other uses), rsp from the frame register tears
     * it down.
     */
    private static FrameState move(FrameState s, int dst, int src, boolean wide) {
        boolean anchor = dst == RBP || s.frameRegister() == FrameState.NO_REGISTER || dst == s.frameRegister();
        if (wide && src == RSP && dst != RSP && anchor) return s.frameFromRsp(dst, 0);
        if (wide && dst == RSP && src == s.frameRegister()) return s.rspFromFrame(0);
        return s.clobbered(dst);
    }

    /** mov [frame slot], reg: where a callee-saved register is kept when the prologue stores rather than pushes. */
    private static FrameState store(FrameState s, X86Instruction i) {
        int slot = slot(s, i);
        return slot == 0 || !i.rexW() ? s : s.stored(reg(i), slot);
    }

    /** mov reg, [...]: a callee-saved register back from its slot, or anything else overwritten. */
    private static FrameState load(FrameState s, X86Instruction i) {
        return i.rexW() ? s.loaded(reg(i), slot(s, i)) : s.clobbered(reg(i));
    }

    /** The CFA offset a memory operand [rsp + d] or [frame register + d] names; 0 for any other operand. */
    private static int slot(FrameState s, X86Instruction i) {
        int base = base(i);
        if (base < 0 || index(i) != NO_INDEX || i.ripRelative()) return 0;
        int less = s.cfaLess(base);
        long offset = less == FrameState.UNKNOWN ? 0 : i.displacement() - less;
        return offset < 0 && offset > Integer.MIN_VALUE ? (int) offset : 0;
    }

    /** lea rsp, [rsp or frame register + d] moves rsp; lea rbp, [rsp + d] makes rbp the frame pointer. */
    private static FrameState lea(FrameState s, X86Instruction i) {
        int dst = reg(i), base = base(i);
        boolean plain = i.mod() != 3 && index(i) == NO_INDEX && !i.ripRelative() && i.rexW();
        if (dst == RSP && plain && base == RSP) return s.rspMoved(i.displacement());
        if (dst == RSP && plain && base == s.frameRegister() && base >= 0) return s.rspFromFrame(i.displacement());
        if (plain && base == RSP && dst == RBP) return s.frameFromRsp(dst, i.displacement());
        return s.clobbered(dst);
    }

    /** enter n, 0: push rbp; mov rbp, rsp; sub rsp, n (nested levels copy frame pointers: not followed). */
    private static FrameState enter(FrameState s, X86Instruction i) {
        long bytes = i.immediate() & 0xffff;
        if (((i.immediate() >>> 16) & 0xff) != 0) return s.clobbered(RBP).withRsp(FrameState.UNKNOWN);
        return s.pushed(RBP).frameFromRsp(RBP, 0).rspMoved(-bytes);
    }

    /** leave: mov rsp, rbp; pop rbp. */
    private static FrameState leave(FrameState s) {
        FrameState restored = s.frameRegister() == RBP ? s.rspFromFrame(0) : s.withRsp(FrameState.UNKNOWN);
        return restored.popped(RBP);
    }

    /** FF: inc, dec, call, jmp, push by extension. */
    private static FrameState group5(FrameState s, X86Instruction i) {
        return switch (extension(i)) {
            case 0, 1 -> registerOperand(s, i);
            case 2 -> s.called();
            case 6 -> s.pushed(i.mod() == 3 ? rm(i) : -1);
            default -> s; // far calls and jumps (the flow's part)
        };
    }

    private static FrameState twoByte(FrameState s, X86Instruction i) {
        int op = i.opcode();
        if (op >= 0x40 && op <= 0x4f) return s.clobbered(reg(i)); // cmov
        if (op >= 0xc8 && op <= 0xcf) return s.clobbered(DWARF[(op & 7) | (i.rex() & 1) << 3]); // bswap
        if (op >= 0x90 && op <= 0x9f) return registerOperand(s, i); // setcc
        return switch (op) {
            case 0xa0, 0xa8 -> s.pushed(-1); // push fs, push gs
            case 0xa1, 0xa9 -> s.rspMoved(8); // pop fs, pop gs
            case 0xa2 -> s.clobbered(RBX); // cpuid
            case 0xaf, 0xb6, 0xb7, 0xb8, 0xbc, 0xbd, 0xbe, 0xbf -> s.clobbered(reg(i)); // imul, movzx/sx, bit scans
            case 0xa4, 0xa5, 0xab, 0xac, 0xad, 0xb0, 0xb1, 0xb3, 0xbb -> registerOperand(s, i); // shld, bts, cmpxchg...
            case 0xba -> extension(i) >= 5 ? registerOperand(s, i) : s; // bts, btr, btc imm (bt reads)
            case 0xc0, 0xc1 -> i.mod() == 3 ? s.clobbered(reg(i)).clobbered(rm(i)) : s.clobbered(reg(i)); // xadd
            default -> s;
        };
    }

    /** The r/m operand written, when it is a register. */
    private static FrameState registerOperand(FrameState s, X86Instruction i) {
        return i.mod() == 3 ? s.clobbered(rm(i)) : s;
    }

    private static boolean sized16(X86Instruction i) {
        return (i.prefixes() & X86Instruction.OPERAND_SIZE) != 0;
    }

    /** The register of a +r opcode (push, pop, mov imm, xchg), with REX.B. */
    private static int plusReg(X86Instruction i) {
        return DWARF[(i.opcode() & 7) | (i.rex() & 1) << 3];
    }

    private static int reg(X86Instruction i) {
        return register(i, i.reg());
    }

    private static int rm(X86Instruction i) {
        return register(i, i.rm());
    }

    /**
     * The register an operand's number names: without REX, byte operands 4 to 7 are ah, ch, dh and bh, parts of
     * rax, rcx, rdx and rbx (not spl, bpl, sil and dil).
     */
    private static int register(X86Instruction i, int number) {
        boolean highByte = (i.prefixes() & X86Instruction.REX) == 0 && number >= 4 && number <= 7 && byteOperands(i);
        return DWARF[highByte ? number - 4 : number];
    }

    private static boolean byteOperands(X86Instruction i) {
        int op = i.opcode();
        if (i.map() == 1) return (op >= 0x90 && op <= 0x9f) || op == 0xb0 || op == 0xc0;
        return (op < 0x40 && (op & 1) == 0)
                || op == 0x80
                || op == 0x86
                || op == 0x88
                || op == 0x8a
                || op == 0xc0
                || op == 0xc6
                || op == 0xd0
                || op == 0xd2
                || op == 0xf6
                || op == 0xfe;
    }

    /** ModRM.reg as an opcode extension (/0 to /7), REX.R not applied. */
    private static int extension(X86Instruction i) {
        return (i.modrm() >> 3) & 7;
    }

    /** The base register of a memory operand (DWARF), or -1 for none. */
    private static int base(X86Instruction i) {
        if (i.hasSib()) {
            boolean none = (i.sib() & 7) == MODRM_RM_RBP && i.mod() == 0;
            return none ? -1 : DWARF[i.sibBase()];
        }
        return i.ripRelative() ? -1 : DWARF[i.rm()];
    }

    /** The index register's encoding number, {@link #NO_INDEX} for none (SIB index 4 without REX.X). */
    private static int index(X86Instruction i) {
        if (!i.hasSib()) return NO_INDEX;
        return ((i.sib() >> 3) & 7) | (i.rex() & 2) << 2;
    }
}
