package org.ompprof.unwinder.elf;

import java.util.ArrayList;
import java.util.List;

/**
 * The x86-64 PLT's stubs as function symbols named {@code target@plt}, as perf and objdump name them: a stub has
 * no symbol of its own, and a symbolizer otherwise names its pcs after the nearest symbol before it ({@code _init}).
 * Stub i jumps through the GOT slot of {@code .rela.plt}'s entry i: in {@code .plt.sec} at 16 bytes a stub (IBT
 * builds), else in {@code .plt} after its 16-byte header.
 */
public final class PltStubs {
    private static final int SHT_RELA = 4, STT_FUNC = 2, STB_LOCAL = 0;
    private static final long STUB = 16, RELA_SIZE = 24, SYM_SIZE = 24;

    private PltStubs() {}

    /** The stubs, or none if the image has no PLT or one this does not recognise. */
    public static List<Symbol> of(ElfFile elf) {
        Section rela = elf.section(".rela.plt").orElse(null);
        Section sec = elf.section(".plt.sec").orElse(null),
                plt = elf.section(".plt").orElse(null);
        if (rela == null || rela.type() != SHT_RELA || (sec == null && plt == null)) return List.of();
        List<Section> sections = elf.sections();
        if (rela.link() <= 0 || rela.link() >= sections.size()) return List.of();
        Section dynsym = sections.get(rela.link());
        if (dynsym.link() <= 0 || dynsym.link() >= sections.size()) return List.of();
        Section stubs = sec != null ? sec : plt;
        long first = sec != null ? stubs.addr() : stubs.addr() + STUB;
        try {
            Bytes relocs = new Bytes(elf.contents(rela)),
                    symbols = new Bytes(elf.contents(dynsym)),
                    names = new Bytes(elf.contents(sections.get(dynsym.link())));
            List<Symbol> out = new ArrayList<>();
            for (long i = 0; i < relocs.size() / RELA_SIZE; i++) {
                long at = first + i * STUB;
                if (at + STUB > stubs.addr() + stubs.size()) break;
                long sym = relocs.u64(i * RELA_SIZE + 8) >>> 32; // r_info: symbol index, type
                if (sym == 0 || (sym + 1) * SYM_SIZE > symbols.size()) continue; // IRELATIVE: no name
                String name = names.cString(symbols.u32(sym * SYM_SIZE), names.size());
                if (!name.isEmpty()) out.add(new Symbol(name + "@plt", at, STUB, STT_FUNC, STB_LOCAL, stubs.index()));
            }
            return out;
        } catch (ElfFormatException e) {
            return List.of(); // a damaged PLT names no stub; the image's own symbols still stand
        }
    }
}
