package org.ompprof.unwinder.stack;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.Symbol;

/** Just enough symbolization for tests: the function symbol containing a frame's lookup pc. */
final class TestSymbols {
    private static final Map<ElfFile, List<Symbol>> FUNCTIONS = new ConcurrentHashMap<>();

    private TestSymbols() {}

    static String name(Frame frame) {
        if (frame.module() == null) return "?";
        return name(frame.module().elf(), frame.relativeLookupPc());
    }

    static String name(ElfFile elf, long vaddr) {
        List<Symbol> functions = FUNCTIONS.computeIfAbsent(
                elf,
                e -> e.symbols().stream()
                        .filter(Symbol::isFunction)
                        .sorted(Comparator.comparingLong(Symbol::value))
                        .toList());
        Symbol best = null;
        for (Symbol s : functions) {
            if (s.value() > vaddr) break;
            if (vaddr < s.value() + Math.max(1, s.size())) best = s;
        }
        return best == null ? "?" : best.name();
    }

    static String describe(UnwindResult r) {
        StringBuilder sb = new StringBuilder(r.termination() + " " + r.detail() + "\n");
        for (Frame f : r.frames()) {
            sb.append(String.format(
                    "  %#014x %-14s %-30s %s%n",
                    f.pc(),
                    f.kind(),
                    name(f),
                    f.module() == null ? "?" : f.module().name()));
        }
        return sb.toString();
    }
}
