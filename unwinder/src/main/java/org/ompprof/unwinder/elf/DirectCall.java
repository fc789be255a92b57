package org.ompprof.unwinder.elf;

import java.util.OptionalLong;

/**
 * The function a return address returns from, where the instruction before it is a direct x86-64 call ({@code E8} and
 * a 32-bit displacement): what a return address says of the call it follows. Empty when the bytes before it are not
 * such a call (an indirect call, an address outside the image's code) or cannot be read.
 */
public final class DirectCall {
    private static final int CALL_REL32 = 0xE8, LENGTH = 5;
    private static final long SHF_EXECINSTR = 0x4;

    private DirectCall() {}

    /** @param returnAddress an address in {@code elf}'s code, as its symbols count them (an ELF virtual address) */
    public static OptionalLong target(ElfFile elf, long returnAddress) {
        long call = returnAddress - LENGTH;
        for (Section s : elf.sections()) {
            if ((s.flags() & SHF_EXECINSTR) == 0 || s.type() == ElfFile.SHT_NOBITS) continue;
            if (call < s.addr() || returnAddress > s.addr() + s.size() || call < 0) continue;
            try {
                Bytes b = new Bytes(elf.fileBytes(s.offset() + (call - s.addr()), LENGTH));
                if (b.u8(0) != CALL_REL32) return OptionalLong.empty();
                return OptionalLong.of(returnAddress + (int) b.u32(1));
            } catch (ElfFormatException e) {
                return OptionalLong.empty();
            }
        }
        return OptionalLong.empty();
    }
}
