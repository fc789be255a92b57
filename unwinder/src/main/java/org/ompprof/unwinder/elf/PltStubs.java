package org.ompprof.unwinder.elf;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The x86-64 PLT's stubs as function symbols named {@code target@plt}, as perf and objdump name them: a stub has
 * no symbol of its own, and a symbolizer otherwise names its pcs after the nearest symbol before it ({@code _init}).
 * A stub jumps through a GOT slot ({@code jmp *disp(%rip)}, after an {@code endbr64} in IBT builds), and the relocation
 * of that slot names the function: in {@code .rela.plt} for the lazy stubs ({@code .plt}, or {@code .plt.sec} in IBT
 * builds), in {@code .rela.dyn} for {@code .plt.got}'s. The order of the stubs is not the relocations' (libc's first
 * stub is strnlen's, its first relocation realloc's): the slot decides. A slot filled by an IRELATIVE relocation (a
 * library's call of its own ifunc: libc's memcpy, strchrnul) has no symbol; its addend is the ifunc's resolver, whose
 * symbol carries the function's name.
 */
public final class PltStubs {
    private static final int SHT_RELA = 4, STT_FUNC = 2, STT_GNU_IFUNC = 10, STB_LOCAL = 0;
    private static final int R_X86_64_GLOB_DAT = 6, R_X86_64_JUMP_SLOT = 7, R_X86_64_IRELATIVE = 37;
    private static final long STUB = 16, RELA_SIZE = 24, SYM_SIZE = 24, JMP_SIZE = 6;

    private PltStubs() {}

    /** The stubs, or none if the image has no PLT or one this does not recognise. */
    public static List<Symbol> of(ElfFile elf) {
        try {
            Map<Long, String> slots = new HashMap<>();
            Ifuncs ifuncs = new Ifuncs(elf);
            for (String name : List.of(".rela.plt", ".rela.dyn")) {
                Section rela = elf.section(name).orElse(null);
                if (rela != null && rela.type() == SHT_RELA) nameSlots(elf, rela, ifuncs, slots);
            }
            if (slots.isEmpty()) return List.of();
            List<Symbol> out = new ArrayList<>();
            for (String name : List.of(".plt", ".plt.sec", ".plt.got")) {
                Section stubs = elf.section(name).orElse(null);
                if (stubs != null) stubsOf(elf, stubs, slots, out);
            }
            return out;
        } catch (ElfFormatException e) {
            return List.of(); // a damaged PLT names no stub; the image's own symbols still stand
        }
    }

    /** The function each relocated GOT slot will hold, by the slot's address. */
    private static void nameSlots(ElfFile elf, Section rela, Ifuncs ifuncs, Map<Long, String> slots) {
        List<Section> sections = elf.sections();
        if (rela.link() <= 0 || rela.link() >= sections.size()) return;
        Section dynsym = sections.get(rela.link());
        if (dynsym.link() <= 0 || dynsym.link() >= sections.size()) return;
        Bytes relocs = new Bytes(elf.contents(rela)),
                symbols = new Bytes(elf.contents(dynsym)),
                names = new Bytes(elf.contents(sections.get(dynsym.link())));
        for (long at = 0; at + RELA_SIZE <= relocs.size(); at += RELA_SIZE) {
            long slot = relocs.u64(at), info = relocs.u64(at + 8), sym = info >>> 32; // r_info: symbol index, type
            int type = (int) info;
            String name = "";
            if (type == R_X86_64_IRELATIVE) {
                name = ifuncs.at(relocs.u64(at + 16));
            } else if ((type == R_X86_64_JUMP_SLOT || type == R_X86_64_GLOB_DAT)
                    && sym != 0
                    && (sym + 1) * SYM_SIZE <= symbols.size()) {
                name = names.cString(symbols.u32(sym * SYM_SIZE), names.size());
            }
            if (!name.isEmpty()) slots.putIfAbsent(slot, name);
        }
    }

    /** The section's stubs whose jump goes through a named slot ({@code .plt}'s header and IBT lazy entries do not). */
    private static void stubsOf(ElfFile elf, Section stubs, Map<Long, String> slots, List<Symbol> out) {
        long size = stubs.entrySize() >= 8 && stubs.entrySize() <= STUB ? stubs.entrySize() : STUB;
        Bytes code = new Bytes(elf.contents(stubs));
        for (long off = 0; off + size <= code.size(); off += size) {
            for (long k = 0; k + JMP_SIZE <= size; k++) {
                if (code.u8(off + k) != 0xff || code.u8(off + k + 1) != 0x25) continue;
                long slot = stubs.addr() + off + k + JMP_SIZE + (int) code.u32(off + k + 2);
                String name = slots.get(slot);
                if (name != null)
                    out.add(new Symbol(name + "@plt", stubs.addr() + off, size, STT_FUNC, STB_LOCAL, stubs.index()));
                break;
            }
        }
    }

    /** The image's ifuncs by their resolver's address, read when a relocation first asks. */
    private static final class Ifuncs {
        private final ElfFile elf;
        private Map<Long, String> byResolver;

        Ifuncs(ElfFile elf) {
            this.elf = elf;
        }

        String at(long resolver) {
            if (byResolver == null) byResolver = read(elf);
            return byResolver.getOrDefault(resolver, "");
        }

        /** Of aliases, the exported one, then the one with fewest leading '_': strchrnul, not __strchrnul. */
        private static Map<Long, String> read(ElfFile elf) {
            Comparator<Symbol> preferred = Comparator.<Symbol>comparingInt(f -> f.bind() == STB_LOCAL ? 1 : 0)
                    .thenComparingInt(f -> leadingUnderscores(f.name()))
                    .thenComparingInt(f -> f.name().length())
                    .thenComparing(Symbol::name);
            Map<Long, Symbol> best = new HashMap<>();
            for (Symbol f : elf.symbols()) {
                if (f.type() == STT_GNU_IFUNC && !f.name().isEmpty())
                    best.merge(f.value(), f, (a, b) -> preferred.compare(a, b) <= 0 ? a : b);
            }
            Map<Long, String> names = new HashMap<>();
            best.forEach((value, f) -> names.put(value, Symbol.unversioned(f.name())));
            return names;
        }

        private static int leadingUnderscores(String name) {
            int n = 0;
            while (n < name.length() && name.charAt(n) == '_') n++;
            return n;
        }
    }
}
