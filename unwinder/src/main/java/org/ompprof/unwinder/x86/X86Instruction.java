package org.ompprof.unwinder.x86;

/**
 * One decoded x86-64 instruction: its length and the parts of its encoding, as {@link X86Decoder} found them.
 *
 * @param length bytes of the whole instruction, prefixes included: 1 to 15
 * @param map the opcode map: 0 one-byte opcodes, 1 {@code 0F}, 2 {@code 0F 38}, 3 {@code 0F 3A}; for VEX and EVEX the
 *     map their prefix selects (EVEX also 5 and 6)
 * @param opcode the opcode byte within its map
 * @param prefixes the flags {@link #OPERAND_SIZE} to {@link #REX}; for VEX and EVEX also the prefix their {@code pp}
 *     field stands for ({@code 66}, {@code F3} or {@code F2}), as if it had been written
 * @param rex W R X B in bits 3 to 0, from the REX prefix or VEX's or EVEX's inverted fields turned into REX's sense; 0
 *     when there are none
 * @param modrm the ModRM byte, -1 if none
 * @param sib the SIB byte, -1 if none
 * @param displacement the memory operand's displacement, sign-extended, 0 if none; for {@code A0}-{@code A3} (MOV
 *     with a {@code moffs} operand) the absolute address, which is what takes a displacement's place there
 * @param immediate the first immediate, sign-extended, 0 if none; for a relative branch its displacement
 * @param immediateSize bytes of all immediates ({@code ENTER}'s {@code iw, ib} count 3)
 */
public record X86Instruction(
        int length,
        int map,
        int opcode,
        int prefixes,
        int rex,
        int modrm,
        int sib,
        long displacement,
        long immediate,
        int immediateSize) {
    public static final int OPERAND_SIZE = 1, ADDRESS_SIZE = 2, REP = 4, REPNE = 8, LOCK = 16, VEX = 32, EVEX = 64;
    /** A REX prefix was in effect: it tells {@code 40} (which changes AH..BH into SPL..DIL) from no REX at all. */
    public static final int REX = 128;

    private static final int REX_W = 8, REX_R = 4, REX_B = 1;

    public boolean hasModrm() {
        return modrm >= 0;
    }

    /** ModRM.mod, -1 without ModRM. */
    public int mod() {
        return hasModrm() ? modrm >>> 6 : -1;
    }

    /** ModRM.reg extended by REX.R (0 to 15), -1 without ModRM. */
    public int reg() {
        return hasModrm() ? (modrm >>> 3 & 7) | (rex & REX_R) << 1 : -1;
    }

    /** ModRM.rm extended by REX.B (0 to 15), -1 without ModRM; a register only when {@link #mod()} is 3. */
    public int rm() {
        return hasModrm() ? (modrm & 7) | (rex & REX_B) << 3 : -1;
    }

    public boolean rexW() {
        return (rex & REX_W) != 0;
    }

    /** Whether the memory operand is {@code [rip + disp32]}. */
    public boolean ripRelative() {
        return hasModrm() && !registerOnlyModrm() && mod() == 0 && (modrm & 7) == 5;
    }

    public boolean hasSib() {
        return sib >= 0;
    }

    /**
     * The SIB base register extended by REX.B (0 to 15); -1 without SIB, or when there is no base: base 5 (or 13) with
     * mod 0 stands for a bare disp32.
     */
    public int sibBase() {
        if (!hasSib() || (mod() == 0 && (sib & 7) == 5)) return -1;
        return (sib & 7) | (rex & REX_B) << 3;
    }

    /** A direct relative call, jump, conditional jump, LOOP or JRCXZ: the ones {@link #relativeTarget} answers for. */
    public boolean isRelativeBranch() {
        if ((prefixes & (VEX | EVEX)) != 0) return false;
        if (map == 1) return opcode >= 0x80 && opcode <= 0x8F;
        if (map != 0) return false;
        return opcode == 0xE8
                || opcode == 0xE9
                || opcode == 0xEB
                || (opcode >= 0x70 && opcode <= 0x7F)
                || (opcode >= 0xE0 && opcode <= 0xE3);
    }

    /**
     * Where this relative branch goes when it is at {@code address}: the displacement counts from the next instruction.
     *
     * @throws IllegalStateException if this is not a {@linkplain #isRelativeBranch() relative branch}
     */
    public long relativeTarget(long address) {
        if (!isRelativeBranch()) throw new IllegalStateException("not a relative branch: " + this);
        return address + length + immediate;
    }

    /** MOV to or from control and debug registers ignore mod: their ModRM names two registers whatever it says. */
    private boolean registerOnlyModrm() {
        return map == 1 && (prefixes & (VEX | EVEX)) == 0 && opcode >= 0x20 && opcode <= 0x23;
    }
}
