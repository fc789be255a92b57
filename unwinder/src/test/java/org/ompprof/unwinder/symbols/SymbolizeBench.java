package org.ompprof.unwinder.symbols;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.Section;
import org.ompprof.unwinder.stack.Module;

/**
 * Symbolizing speed (`make bench`, scripts/bench-unwind): cold (llvm-symbolizer, symbol tables) and warm (cached).
 * Run from the unwinder module's directory (the fixture builds its programs under target/).
 */
public final class SymbolizeBench {
    private static final Path LIBOMP = Path.of("/usr/lib/llvm-19/lib/libomp.so.5");

    private SymbolizeBench() {}

    public static void main(String[] args) throws Exception {
        Module program = Module.open(SymbolsFixture.binaries().debug(), 0x5555_0000_0000L);
        long[] programPcs = textPcs(program.elf(), 1);
        try (Symbolizer s = Symbolizer.create()) {
            long t0 = System.nanoTime();
            s.symbolize(program, programPcs[0]);
            report("first pc, llvm-symbolizer (reading the debug info)", 1, t0);
            t0 = System.nanoTime();
            Map<Long, List<SourceFrame>> cold = s.symbolizeAll(program, programPcs);
            report("cold, llvm-symbolizer, one batch", programPcs.length - 1, t0);
            if (cold.size() != programPcs.length) throw new IllegalStateException("pcs left unanswered");
            warm(s, program, programPcs, "warm, cached llvm answers");
        }
        coldRounds(program, programPcs);
        if (!Files.isRegularFile(LIBOMP)) return;
        Module libomp = Module.open(LIBOMP, 0x7f00_0000_0000L);
        long[] ompPcs = textPcs(libomp.elf(), 7);
        try (Symbolizer s = Symbolizer.symbolTablesOnly(m -> Optional.empty())) {
            long t0 = System.nanoTime();
            s.symbolizeAll(libomp, ompPcs);
            report(
                    "cold, libomp symbol table (includes building it: "
                            + s.symbolTable(libomp).size() + " functions)",
                    ompPcs.length,
                    t0);
            warm(s, libomp, ompPcs, "warm, cached symbol-table answers");
        }
    }

    /** Fresh symbolizers (so nothing cached, a new process) once the JIT has warmed up: llvm-symbolizer's own pace. */
    private static void coldRounds(Module program, long[] pcs) {
        for (int round = 0; round < 4; round++) {
            try (Symbolizer s = Symbolizer.create()) {
                s.symbolize(program, pcs[0]);
                long t0 = System.nanoTime();
                s.symbolizeAll(program, pcs);
                if (round == 3) report("cold, llvm-symbolizer, one batch, JIT warm", pcs.length - 1, t0);
            }
        }
    }

    private static void warm(Symbolizer s, Module m, long[] pcs, String what) {
        long deadline = System.nanoTime() + 300_000_000L, n = 0;
        while (System.nanoTime() < deadline) n += s.symbolizeAll(m, pcs).size(); // warm-up
        long t0 = System.nanoTime();
        n = 0;
        while (System.nanoTime() - t0 < 500_000_000L) {
            for (long pc : pcs) n += s.symbolize(m, pc).size();
        }
        report(what + ", one pc per call", n, t0);
    }

    private static void report(String what, long pcs, long t0) {
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf("symbolize %s: %,d pcs in %.3f s = %,.0f pcs/s%n", what, pcs, seconds, pcs / seconds);
    }

    private static long[] textPcs(ElfFile elf, int step) {
        Section text = elf.section(".text").orElseThrow();
        return java.util.stream.LongStream.iterate(text.addr(), pc -> pc < text.addr() + text.size(), pc -> pc + step)
                .toArray();
    }
}
