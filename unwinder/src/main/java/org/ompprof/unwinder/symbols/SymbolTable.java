package org.ompprof.unwinder.symbols;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.ElfFormatException;
import org.ompprof.unwinder.elf.PltStubs;
import org.ompprof.unwinder.elf.ProgramHeader;
import org.ompprof.unwinder.elf.Symbol;

/**
 * The function symbols of one module (.symtab and .dynsym, and the PLT's stubs as {@code target@plt}), sorted and
 * deduplicated, searched
 * by relative pc (an ELF vaddr: runtime pc minus load bias). Immutable and thread-safe.
 *
 * <p>A symbol with a size covers exactly {@code [value, value + size)}; a zero-size one (often
 * hand-written assembly) reaches to the next symbol or the end of its section, since that is
 * the best guess at where its code ends.
 */
public final class SymbolTable {
    static final int STT_FUNC = 2, STT_GNU_IFUNC = 10;
    private static final int STB_LOCAL = 0, STB_GLOBAL = 1, STB_WEAK = 2, STB_GNU_UNIQUE = 10;
    /** How far back to look for a sized symbol that encloses a smaller one ending before the pc. */
    private static final int ENCLOSING_LOOKBACK = 8;

    private final long[] starts;
    private final long[] ends;
    private final String[] names;
    private final long baseVaddr;
    private final String problem;

    private SymbolTable(long[] starts, long[] ends, String[] names, long baseVaddr, String problem) {
        this.starts = starts;
        this.ends = ends;
        this.names = names;
        this.baseVaddr = baseVaddr;
        this.problem = problem;
    }

    /** Never throws: a damaged symbol table gives an empty table whose {@link #problem()} says why. */
    public static SymbolTable of(ElfFile elf) {
        return of(elf, List.of());
    }

    /**
     * The image's functions together with those of {@code supplements}: images at the same
     * addresses that keep what stripping removed (MiniDebugInfo, a separate debug file).
     * Never throws; a damaged supplement is skipped.
     */
    public static SymbolTable of(ElfFile elf, List<ElfFile> supplements) {
        long base = baseVaddr(elf);
        try {
            List<Sized> functions = functions(elf);
            for (ElfFile s : supplements) {
                try {
                    functions.addAll(functions(s));
                } catch (ElfFormatException e) {
                    // the image's own symbols still stand
                }
            }
            return build(functions, base);
        } catch (ElfFormatException e) {
            return new SymbolTable(
                    new long[0], new long[0], new String[0], base, "symbol table unreadable: " + e.getMessage());
        }
    }

    /** The vaddr of the first PT_LOAD, which {@code libname+0xoffset} names count from. */
    private static long baseVaddr(ElfFile elf) {
        for (ProgramHeader p : elf.programHeaders()) {
            if (p.type() == ElfFile.PT_LOAD) return p.vaddr();
        }
        return 0;
    }

    /** A function symbol with the image whose sections bound it. */
    private record Sized(Symbol symbol, ElfFile elf) {}

    private static List<Sized> functions(ElfFile elf) {
        List<Sized> functions = new ArrayList<>();
        for (Symbol s : elf.symbols()) {
            if (s.type() == STT_FUNC || s.type() == STT_GNU_IFUNC) functions.add(new Sized(s, elf));
        }
        for (Symbol stub : PltStubs.of(elf)) functions.add(new Sized(stub, elf));
        return functions;
    }

    private static SymbolTable build(List<Sized> functions, long base) {
        functions.sort(Comparator.comparingLong(f -> f.symbol().value()));
        List<Sized> merged = mergeAliases(functions);
        int n = merged.size();
        long[] starts = new long[n], ends = new long[n];
        String[] names = new String[n];
        for (int i = 0; i < n; i++) {
            Symbol s = merged.get(i).symbol();
            starts[i] = s.value();
            names[i] = Symbol.unversioned(s.name());
            long next = i + 1 < n ? merged.get(i + 1).symbol().value() : Long.MAX_VALUE;
            ends[i] = s.size() > 0
                    ? s.value() + s.size()
                    : zeroSizeEnd(merged.get(i).elf(), s, next);
        }
        return new SymbolTable(starts, ends, names, base, null);
    }

    /** One symbol per address: the best name, and the largest size any alias states. */
    private static List<Sized> mergeAliases(List<Sized> sorted) {
        List<Sized> out = new ArrayList<>();
        int i = 0;
        while (i < sorted.size()) {
            Sized bestAt = sorted.get(i);
            Symbol best = bestAt.symbol();
            long size = best.size();
            int j = i + 1;
            while (j < sorted.size() && sorted.get(j).symbol().value() == best.value()) j++;
            Set<String> compat = compatNames(sorted.subList(i, j));
            for (int k = i + 1; k < j; k++) {
                Symbol s = sorted.get(k).symbol();
                size = Math.max(size, s.size());
                if (betterName(s, best, compat)) {
                    best = s;
                    bestAt = sorted.get(k);
                }
            }
            out.add(new Sized(
                    new Symbol(best.name(), best.value(), size, best.type(), best.bind(), best.sectionIndex()),
                    bestAt.elf()));
            i = j;
        }
        return out;
    }

    /**
     * Global names are what users call a function; local beats weak, which is often an alias. Of two versioned ones
     * (a debug file's .symtab), the default version ({@code free@@GLIBC_2.2.5}) beats a compatibility alias kept for
     * old binaries ({@code cfree@GLIBC_2.2.5}).
     */
    private static boolean betterName(Symbol candidate, Symbol current, Set<String> compat) {
        if (current.name().isEmpty() != candidate.name().isEmpty())
            return current.name().isEmpty();
        if (rank(candidate.bind()) != rank(current.bind())) return rank(candidate.bind()) < rank(current.bind());
        return compat.contains(Symbol.unversioned(current.name()))
                && !compat.contains(Symbol.unversioned(candidate.name()));
    }

    /** The names that are compatibility aliases at one address, as a debug file's versioned names tell. */
    private static Set<String> compatNames(List<Sized> aliases) {
        Set<String> out = new HashSet<>();
        for (Sized a : aliases)
            if (compatAlias(a.symbol().name()))
                out.add(Symbol.unversioned(a.symbol().name()));
        return out;
    }

    /** A symbol of a version other than its name's default: {@code name@VERSION}, one {@code @}. */
    static boolean compatAlias(String name) {
        int at = name.indexOf('@');
        return at > 0 && !name.startsWith("@", at + 1) && !name.endsWith("@plt");
    }

    private static int rank(int bind) {
        return switch (bind) {
            case STB_GLOBAL, STB_GNU_UNIQUE -> 0;
            case STB_LOCAL -> 1;
            case STB_WEAK -> 2;
            default -> 3;
        };
    }

    private static long zeroSizeEnd(ElfFile elf, Symbol s, long nextStart) {
        long end = Math.min(nextStart, elf.sectionEnd(s).orElse(nextStart));
        // Neither a next symbol nor a section bounds it: claim only its first byte rather than all memory.
        return end == Long.MAX_VALUE ? s.value() + 1 : end;
    }

    /** The function containing relative pc {@code pc}, or null. */
    public SymbolHit lookup(long pc) {
        int i = lastStartAtOrBelow(pc);
        for (int k = i; k >= 0 && k > i - ENCLOSING_LOOKBACK; k--) {
            if (pc < ends[k]) return new SymbolHit(names[k], starts[k], ends[k]);
        }
        return null;
    }

    private int lastStartAtOrBelow(long pc) {
        int lo = 0, hi = starts.length - 1, found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (starts[mid] <= pc) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /** The symbol name containing {@code pc}, else {@code moduleLabel+0xoffset} from {@link #baseVaddr()}. */
    public String nameOrOffset(long pc, String moduleLabel) {
        SymbolHit hit = lookup(pc);
        return hit != null ? hit.name() : offsetName(moduleLabel, pc);
    }

    public String offsetName(String moduleLabel, long pc) {
        return moduleLabel + "+0x" + Long.toHexString(pc - baseVaddr);
    }

    public long baseVaddr() {
        return baseVaddr;
    }

    public int size() {
        return starts.length;
    }

    public boolean isEmpty() {
        return starts.length == 0;
    }

    /** Why the table is empty though the module may have symbols, or null. */
    public String problem() {
        return problem;
    }
}
