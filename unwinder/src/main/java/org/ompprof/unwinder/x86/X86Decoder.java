package org.ompprof.unwinder.x86;

import static org.ompprof.unwinder.x86.X86Instruction.ADDRESS_SIZE;
import static org.ompprof.unwinder.x86.X86Instruction.EVEX;
import static org.ompprof.unwinder.x86.X86Instruction.LOCK;
import static org.ompprof.unwinder.x86.X86Instruction.OPERAND_SIZE;
import static org.ompprof.unwinder.x86.X86Instruction.REP;
import static org.ompprof.unwinder.x86.X86Instruction.REPNE;
import static org.ompprof.unwinder.x86.X86Instruction.REX;
import static org.ompprof.unwinder.x86.X86Instruction.VEX;

/**
 * Sizes and splits x86-64 instructions (64-bit mode): legacy and REX prefixes, the one-byte, {@code 0F}, {@code 0F 38}
 * and {@code 0F 3A} maps, VEX and EVEX. It answers only what it can size with certainty: bytes that are no instruction
 * in 64-bit mode, or whose length depends on the CPU's vendor, decode to nothing rather than to a guess.
 *
 * <p>Decoding never throws and allocates nothing but the result, so it can run over arbitrary bytes (a snapshot of
 * memory, the middle of an instruction) on a hot path.
 */
public final class X86Decoder {
    /** Longer instructions fault (#GP), whatever their bytes say. */
    private static final int MAX_LENGTH = 15;

    // An operand-layout class: the immediate's kind in the low 4 bits, and flags above.
    private static final int IMM_NONE = 0, IMM_8 = 1, IMM_16 = 2, IMM_Z = 3, IMM_V = 4, IMM_ENTER = 5, IMM_MOFFS = 6;
    private static final int IMM_JZ = 7, IMM_GROUP3_8 = 8, IMM_GROUP3_Z = 9, IMM_SSE4A = 10, IMM_F3_ONLY = 11;
    private static final int IMM_KIND = 0xF, MODRM = 0x10, REGISTER_ONLY = 0x20, INVALID = 0x40;

    /** Segment overrides are accepted and ignored, as 64-bit mode does (FS and GS only change the base). */
    private static final int SEGMENT = 1 << 30;

    /**
     * The one-byte map, a row per high nibble. {@code m} ModRM; {@code b} imm8; {@code j} rel8; {@code z} imm16/32;
     * {@code B}/{@code Z} ModRM and imm8/imm16/32; {@code w} imm16; {@code e} imm16 and imm8 (ENTER); {@code v}
     * imm16/32/64 (MOV r, imm); {@code o} moffs; {@code J} rel32; {@code u}/{@code U} ModRM, then an immediate for /0
     * and /1 only (TEST); {@code x} invalid in 64-bit mode; {@code -} prefixes and escapes, handled before the table.
     */
    private static final byte[] ONE_BYTE = table(
            "mmmmbzxxmmmmbzx-", // 0x: ALU, PUSH/POP ES/CS/SS/DS are gone
            "mmmmbzxxmmmmbzxx", // 1x
            "mmmmbz-xmmmmbz-x", // 2x: DAA, DAS are gone
            "mmmmbz-xmmmmbz-x", // 3x: AAA, AAS are gone
            "----------------", // 4x: REX
            "................", // 5x: PUSH/POP r64
            "xx-m----zZbB....", // 6x: PUSHA, POPA gone, 62 is EVEX, 63 MOVSXD
            "jjjjjjjjjjjjjjjj", // 7x: Jcc rel8
            "BZxBmmmmmmmmmmmm", // 8x: 82 is gone
            "..........x.....", // 9x: far CALL is gone
            "oooo....bz......", // Ax
            "bbbbbbbbvvvvvvvv", // Bx: MOV r, imm
            "BBw.--BZe.w..bx.", // Cx: C4 C5 are VEX, INTO is gone
            "mmmmxxx.mmmmmmmm", // Dx: AAM, AAD, SALC are gone; x87
            "jjjjbbbbJJxj....", // Ex: far JMP is gone
            "-.--..uU......mm"); // Fx

    /**
     * The {@code 0F} map, in the same letters; also {@code r} ModRM that always names registers (MOV CR/DR ignore mod),
     * {@code q} VMREAD, or SSE4a's EXTRQ/INSERTQ (two imm8 with 66 or F2), and {@code c} valid only with F3 (POPCNT).
     */
    private static final byte[] TWO_BYTE = table(
            "mmmmx.....x.xm.B", // 0x: 0F 0F is 3DNow!, its opcode in a trailing imm8
            "mmmmmmmmmmmmmmmm", // 1x: 18-1F hints and multi-byte NOPs, ENDBR64
            "rrrrxxxxmmmmmmmm", // 2x
            "......x.-x-xxxxx", // 3x: 38, 3A escape to three-byte maps
            "mmmmmmmmmmmmmmmm", // 4x: CMOVcc
            "mmmmmmmmmmmmmmmm", // 5x
            "mmmmmmmmmmmmmmmm", // 6x
            "BBBBmmm.qmxxmmmm", // 7x
            "JJJJJJJJJJJJJJJJ", // 8x: Jcc rel32
            "mmmmmmmmmmmmmmmm", // 9x: SETcc
            "...mBmmm...mBmmm", // Ax: A6, A7 are VIA PadLock
            "mmmmmmmmcmBmmmmm", // Bx
            "mmBmBBBm........", // Cx: BSWAP
            "mmmmmmmmmmmmmmmm", // Dx
            "mmmmmmmmmmmmmmmm", // Ex
            "mmmmmmmmmmmmmmmx"); // Fx: UD0 takes ModRM on Intel, not on AMD

    private X86Decoder() {}

    /**
     * The instruction at {@code code[offset]}, reading nothing at or after {@code end}; null when the bytes there are
     * not a 64-bit-mode instruction of certain length, or are cut short by {@code end}.
     */
    public static X86Instruction decode(byte[] code, int offset, int end) {
        if (code == null || offset < 0 || end > code.length || offset >= end) return null;
        int limit = end - offset > MAX_LENGTH ? offset + MAX_LENGTH : end;
        int pos = offset, prefixes = 0, rex = 0;
        for (; ; pos++) {
            if (pos >= limit) return null;
            int b = code[pos] & 0xFF, flag = legacyPrefix(b);
            if (flag != 0) {
                prefixes |= flag;
                rex = 0; // a REX followed by another prefix is ignored
            } else if ((b & 0xF0) == 0x40) {
                rex = b;
            } else {
                break;
            }
        }
        prefixes &= ~SEGMENT;
        int opcode = code[pos] & 0xFF;
        if (opcode == 0xC4 || opcode == 0xC5 || opcode == 0x62) {
            // VEX and EVEX carry their own REX and SIMD prefix: others before them fault (#UD)
            if (rex != 0 || (prefixes & (OPERAND_SIZE | REP | REPNE | LOCK)) != 0) return null;
            return opcode == 0x62
                    ? evex(code, offset, pos + 1, limit, prefixes)
                    : vex(code, offset, pos + 1, limit, prefixes, opcode == 0xC4);
        }
        if (rex != 0) prefixes |= REX;
        if (opcode == 0x0F) return escape(code, offset, pos + 1, limit, prefixes, rex & 0xF);
        return operands(code, offset, pos + 1, limit, 0, opcode, prefixes, rex & 0xF, ONE_BYTE[opcode]);
    }

    /** The flag of a legacy prefix, {@link #SEGMENT} for a segment override, 0 for any other byte. */
    private static int legacyPrefix(int b) {
        return switch (b) {
            case 0x66 -> OPERAND_SIZE;
            case 0x67 -> ADDRESS_SIZE;
            case 0xF0 -> LOCK;
            case 0xF2 -> REPNE;
            case 0xF3 -> REP;
            case 0x26, 0x2E, 0x36, 0x3E, 0x64, 0x65 -> SEGMENT;
            default -> 0;
        };
    }

    /** After {@code 0F}: the two-byte map, or the escape to {@code 0F 38} (no immediate) and {@code 0F 3A} (imm8). */
    private static X86Instruction escape(byte[] code, int offset, int pos, int limit, int prefixes, int rex) {
        if (pos >= limit) return null;
        int second = code[pos] & 0xFF;
        if (second != 0x38 && second != 0x3A)
            return operands(code, offset, pos + 1, limit, 1, second, prefixes, rex, TWO_BYTE[second]);
        if (pos + 1 >= limit) return null;
        int map = second == 0x38 ? 2 : 3;
        int layout = map == 3 ? MODRM | IMM_8 : MODRM;
        return operands(code, offset, pos + 2, limit, map, code[pos + 1] & 0xFF, prefixes, rex, layout);
    }

    /** {@code C5 [R vvvv L pp]} or {@code C4 [R X B mmmmm] [W vvvv L pp]}, then opcode and operands. */
    private static X86Instruction vex(byte[] code, int offset, int pos, int limit, int prefixes, boolean threeByte) {
        int payload = threeByte ? 2 : 1;
        if (pos + payload >= limit) return null;
        int first = code[pos] & 0xFF, last = code[pos + payload - 1] & 0xFF;
        int map = threeByte ? first & 0x1F : 1;
        int rex = threeByte ? (~first >>> 5 & 7) | (last >>> 4 & 8) : ~first >>> 5 & 4;
        if (map < 1 || map > 3) return null;
        int opcode = code[pos + payload] & 0xFF;
        int layout = map == 1 && opcode == 0x77 ? IMM_NONE : vexLayout(map, opcode); // VZEROUPPER, VZEROALL
        prefixes |= VEX | simdPrefix(last);
        return operands(code, offset, pos + payload + 1, limit, map, opcode, prefixes, rex, layout);
    }

    /**
     * {@code 62 [R X B R' 0 mmm] [W vvvv 1 pp] [z L'L b V' aaa]}, then opcode and operands, which always include
     * ModRM. Maps 5 and 6 are AVX512-FP16's; APX's extensions (map 4, the B4 bit) are not decoded. Compressed disp8*N
     * changes what disp8 means, not its size.
     */
    private static X86Instruction evex(byte[] code, int offset, int pos, int limit, int prefixes) {
        if (pos + 3 >= limit) return null;
        int p0 = code[pos] & 0xFF, p1 = code[pos + 1] & 0xFF;
        int map = p0 & 7;
        // Bit 3 faults without APX; with it, it is B4 (bases r16-r31), and decoders disagree on whether SIB base 5
        // with mod 0 then still means disp32
        if (map == 0 || map == 4 || map == 7 || (p0 & 8) != 0) return null;
        int rex = (~p0 >>> 5 & 7) | (p1 >>> 4 & 8);
        int opcode = code[pos + 3] & 0xFF;
        prefixes |= EVEX | simdPrefix(p1);
        return operands(code, offset, pos + 4, limit, map, opcode, prefixes, rex, vexLayout(map, opcode));
    }

    /** The prefix a VEX or EVEX {@code pp} field stands for. */
    private static int simdPrefix(int payload) {
        return switch (payload & 3) {
            case 1 -> OPERAND_SIZE;
            case 2 -> REP;
            case 3 -> REPNE;
            default -> 0;
        };
    }

    /**
     * VEX and EVEX instructions take ModRM (bar VZEROUPPER/VZEROALL, left to the caller); an imm8 all of map 3 and,
     * in map 1, CMPPS, PINSRW, PEXTRW, SHUFPS, PSHUFD and the shifts by an immediate. Maps 2, 5 and 6 take none.
     */
    private static int vexLayout(int map, int opcode) {
        boolean imm8 = map == 3
                || map == 1 && (opcode >= 0x70 && opcode <= 0x73 || opcode == 0xC2 || opcode >= 0xC4 && opcode <= 0xC6);
        return imm8 ? MODRM | IMM_8 : MODRM;
    }

    /** ModRM, SIB, displacement and immediates after the opcode at {@code pos - 1}, and the instruction they end. */
    private static X86Instruction operands(
            byte[] code, int offset, int pos, int limit, int map, int opcode, int prefixes, int rex, int layout) {
        if ((layout & INVALID) != 0) return null;
        int modrm = -1, sib = -1, dispSize = 0;
        if ((layout & MODRM) != 0) {
            if (pos >= limit) return null;
            modrm = code[pos++] & 0xFF;
            if ((prefixes & (VEX | EVEX)) == 0 && !groupAllows(map, opcode, modrm)) return null;
            if ((layout & REGISTER_ONLY) == 0 && modrm < 0xC0) {
                if ((modrm & 7) == 4) {
                    if (pos >= limit) return null;
                    sib = code[pos++] & 0xFF;
                }
                dispSize = displacementSize(modrm, sib);
            }
        } else if ((layout & IMM_KIND) == IMM_MOFFS) {
            dispSize = (prefixes & ADDRESS_SIZE) != 0 ? 4 : 8;
        }
        int immSize = immediateSize(layout & IMM_KIND, prefixes, rex, modrm);
        if (immSize < 0 || immSize > limit - pos - dispSize) return null;
        long displacement = signed(code, pos, dispSize);
        pos += dispSize;
        long immediate = signed(code, pos, firstImmediateSize(layout & IMM_KIND, immSize));
        int length = pos + immSize - offset;
        return new X86Instruction(length, map, opcode, prefixes, rex, modrm, sib, displacement, immediate, immSize);
    }

    /** Opcodes where some ModRM values are no instruction at all (#UD), so that garbage is told from code. */
    private static boolean groupAllows(int map, int opcode, int modrm) {
        int reg = modrm >>> 3 & 7;
        boolean memory = modrm < 0xC0;
        if (map == 1) return opcode != 0xBA || reg >= 4; // BT, BTS, BTR, BTC imm8
        if (map != 0) return true;
        return switch (opcode) {
            case 0x8C -> reg <= 5; // MOV r/m, Sreg: six segment registers
            case 0x8D -> memory; // LEA
            case 0x8E -> reg <= 5 && reg != 1; // MOV Sreg, r/m: not to CS
            case 0x8F -> reg == 0; // POP r/m; the rest is AMD's XOP
            case 0xC6, 0xC7 -> reg == 0 || modrm == 0xF8; // MOV r/m, imm; XABORT, XBEGIN
            case 0xFE -> reg <= 1; // INC, DEC
            case 0xFF -> reg != 7 && (memory || (reg != 3 && reg != 5)); // far CALL and JMP take memory only
            default -> true;
        };
    }

    /** mod 1: disp8; mod 2: disp32; mod 0: disp32 only with rm 5 (RIP-relative) or a SIB base of 5 (no base). */
    private static int displacementSize(int modrm, int sib) {
        return switch (modrm >>> 6) {
            case 1 -> 1;
            case 2 -> 4;
            default -> (modrm & 7) == 5 || sib >= 0 && (sib & 7) == 5 ? 4 : 0;
        };
    }

    /** Bytes of all immediates, -1 when there is no instruction or its size depends on the vendor. */
    private static int immediateSize(int kind, int prefixes, int rex, int modrm) {
        boolean wide = (rex & 8) != 0, narrow = (prefixes & OPERAND_SIZE) != 0 && !wide; // REX.W overrides 66
        boolean testImm = (modrm >>> 3 & 7) <= 1; // group 3's /0 and /1 are TEST r/m, imm
        return switch (kind) {
            case IMM_NONE, IMM_MOFFS -> 0;
            case IMM_8 -> 1;
            case IMM_16 -> 2;
            case IMM_Z -> narrow ? 2 : 4;
            case IMM_V -> wide ? 8 : narrow ? 2 : 4;
            case IMM_ENTER -> 3;
            case IMM_JZ -> narrow ? -1 : 4; // Intel ignores 66 on near branches, AMD takes a rel16
            case IMM_GROUP3_8 -> testImm ? 1 : 0;
            case IMM_GROUP3_Z -> testImm ? (narrow ? 2 : 4) : 0;
            case IMM_SSE4A -> sse4aImmediateSize(prefixes, modrm);
            case IMM_F3_ONLY -> (prefixes & REP) != 0 ? 0 : -1;
            default -> -1;
        };
    }

    /**
     * {@code 0F 78}: VMREAD without a prefix; EXTRQ xmm, imm8, imm8 with 66 and /0, INSERTQ with F2, both on registers
     * only. VMX instructions fault (#UD) with any of 66, F2 or F3.
     */
    private static int sse4aImmediateSize(int prefixes, int modrm) {
        boolean registers = modrm >= 0xC0;
        if ((prefixes & REP) != 0) return -1;
        if ((prefixes & REPNE) != 0) return registers ? 2 : -1;
        if ((prefixes & OPERAND_SIZE) != 0) return registers && (modrm >>> 3 & 7) == 0 ? 2 : -1;
        return 0;
    }

    /** ENTER's iw and SSE4a's first imm8 come before a second immediate. */
    private static int firstImmediateSize(int kind, int immSize) {
        return switch (kind) {
            case IMM_ENTER -> 2;
            case IMM_SSE4A -> Math.min(immSize, 1);
            default -> immSize;
        };
    }

    /** The little-endian integer of {@code size} bytes (0, 1, 2, 4 or 8) at {@code pos}, sign-extended. */
    private static long signed(byte[] code, int pos, int size) {
        if (size == 0) return 0;
        long value = 0;
        for (int i = size - 1; i >= 0; i--) value = value << 8 | (code[pos + i] & 0xFF);
        int unused = 64 - 8 * size;
        return value << unused >> unused;
    }

    /** Sixteen rows of sixteen letters, one per opcode, into layouts. */
    private static byte[] table(String... rows) {
        byte[] layouts = new byte[256];
        for (int i = 0; i < 256; i++) layouts[i] = (byte) letterLayout(rows[i >> 4].charAt(i & 15));
        return layouts;
    }

    private static int letterLayout(char letter) {
        return switch (letter) {
            case '.' -> IMM_NONE;
            case 'm' -> MODRM;
            case 'r' -> MODRM | REGISTER_ONLY;
            case 'b', 'j' -> IMM_8;
            case 'B' -> MODRM | IMM_8;
            case 'z' -> IMM_Z;
            case 'Z' -> MODRM | IMM_Z;
            case 'w' -> IMM_16;
            case 'e' -> IMM_ENTER;
            case 'v' -> IMM_V;
            case 'o' -> IMM_MOFFS;
            case 'J' -> IMM_JZ;
            case 'u' -> MODRM | IMM_GROUP3_8;
            case 'U' -> MODRM | IMM_GROUP3_Z;
            case 'q' -> MODRM | IMM_SSE4A;
            case 'c' -> MODRM | IMM_F3_ONLY;
            case 'x', '-' -> INVALID;
            default -> throw new IllegalArgumentException("no layout letter: " + letter);
        };
    }
}
