package org.ompprof.unwinder.cfi;

/**
 * DWARF register numbers of x86-64 (System V psABI, figure 3.36). Only the general registers
 * and the return address column are tracked: vector registers never hold a CFA or a return
 * address, and rules for them are read and dropped.
 */
public final class X86Registers {
    public static final int RAX = 0, RDX = 1, RCX = 2, RBX = 3, RSI = 4, RDI = 5, RBP = 6, RSP = 7;
    public static final int R8 = 8, R9 = 9, R10 = 10, R11 = 11, R12 = 12, R13 = 13, R14 = 14, R15 = 15;
    /** The return address column, which is also the instruction pointer. */
    public static final int RIP = 16;
    /** Tracked columns are {@code 0 .. COUNT-1}. */
    public static final int COUNT = 17;

    private static final String[] NAMES = {
        "RAX", "RDX", "RCX", "RBX", "RSI", "RDI", "RBP", "RSP", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
        "RIP"
    };

    private X86Registers() {}

    public static String name(int register) {
        return register >= 0 && register < COUNT ? NAMES[register] : "reg" + register;
    }
}
