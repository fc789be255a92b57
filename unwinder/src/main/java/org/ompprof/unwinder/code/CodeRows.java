package org.ompprof.unwinder.code;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.ompprof.unwinder.cfi.NoCfi;
import org.ompprof.unwinder.cfi.RowResult;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.ElfFormatException;
import org.ompprof.unwinder.elf.Section;
import org.ompprof.unwinder.elf.Symbol;

/**
 * Rows read from one module's machine code, for its pcs that no FDE covers: the function symbol around the pc (a
 * sized one, or a zero-sized one up to the next symbol or its section's end, as crt's {@code _fini} is) is followed
 * once ({@link FunctionFrames}) and kept. Without a symbol around the pc, or with its code unreadable, the answer is
 * {@link NoCfi}. Thread-safe; never throws.
 */
public final class CodeRows {
    private static final long SHF_EXECINSTR = 0x4;
    /** Functions larger than this are not followed: a damaged size, or a table the followers need not cross. */
    private static final long MAX_FUNCTION = 1 << 20;

    private final ElfFile elf;
    private volatile long[][] bounds;
    private final ConcurrentHashMap<Long, FunctionFrames> functions = new ConcurrentHashMap<>();

    private CodeRows(ElfFile elf) {
        this.elf = elf;
    }

    public static CodeRows of(ElfFile elf) {
        return new CodeRows(elf);
    }

    /** The row at relative pc {@code pc}, or {@link NoCfi}. */
    public RowResult rowFor(long pc) {
        FunctionFrames frames = frames(pc);
        return frames == null ? new NoCfi(pc, pc + 1) : frames.rowFor(pc);
    }

    /** The followed function around {@code pc}, or null. */
    FunctionFrames frames(long pc) {
        long[] f = function(pc);
        return f == null ? null : functions.computeIfAbsent(f[0], start -> follow(start, f[1]));
    }

    private FunctionFrames follow(long start, long end) {
        for (Section s : elf.sections()) {
            if ((s.flags() & SHF_EXECINSTR) == 0 || s.type() == ElfFile.SHT_NOBITS) continue;
            if (start < s.addr() || end > s.addr() + s.size()) continue;
            try {
                return FunctionFrames.of(start, elf.fileBytes(s.offset() + (start - s.addr()), end - start));
            } catch (ElfFormatException e) {
                return null;
            }
        }
        return null;
    }

    /** {start, end} of the function symbol around {@code pc}, or null. */
    private long[] function(long pc) {
        long[][] b = bounds;
        if (b == null) bounds = b = functionBounds(elf);
        int k = Arrays.binarySearch(b[0], pc);
        if (k < 0) k = -k - 2;
        return k >= 0 && pc < b[1][k] ? new long[] {b[0][k], b[1][k]} : null;
    }

    /** Sorted starts and their ends; a zero-sized symbol ends at the next one or at its section's end. */
    private static long[][] functionBounds(ElfFile elf) {
        List<Symbol> functions = new ArrayList<>();
        try {
            for (Symbol s : elf.symbols()) if (s.isFunction() && s.value() != 0) functions.add(s);
        } catch (ElfFormatException e) {
            return new long[][] {{}, {}};
        }
        functions.sort(Comparator.comparingLong(Symbol::value)
                .thenComparing(Comparator.comparingLong(Symbol::size).reversed()));
        List<long[]> out = new ArrayList<>();
        for (int k = 0; k < functions.size(); k++) {
            Symbol s = functions.get(k);
            if (k > 0 && functions.get(k - 1).value() == s.value()) continue; // an alias: the largest size came first
            long next = k + 1 < functions.size() ? functions.get(k + 1).value() : Long.MAX_VALUE;
            long end = s.size() > 0
                    ? s.value() + s.size()
                    : Math.min(next, elf.sectionEnd(s).orElse(s.value()));
            if (end > s.value() && end - s.value() <= MAX_FUNCTION) out.add(new long[] {s.value(), end});
        }
        return new long[][] {
            out.stream().mapToLong(x -> x[0]).toArray(),
            out.stream().mapToLong(x -> x[1]).toArray()
        };
    }
}
