package org.ompprof.unwinder.symbols;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.ompprof.unwinder.elf.ElfFile;

/**
 * What the symbolizer keeps per image: its symbol table, the file llvm-symbolizer reads for it
 * (null when the symbol table is all there is), and the answers given so far.
 */
final class ImageSymbols {
    /** Bounds memory per image; a profile rarely has this many distinct pcs in one module. */
    private static final int MAX_CACHED = 1 << 20;

    private final ElfFile elf;
    private final Supplier<List<ElfFile>> supplements;
    private final Map<Long, List<SourceFrame>> answers = new ConcurrentHashMap<>();
    private volatile SymbolTable table;
    private boolean decided;
    private Path llvmTarget;

    /**
     * @param supplements other images whose symbols name this one's code (MiniDebugInfo, debug files), read once on
     * first use
     */
    ImageSymbols(ElfFile elf, Supplier<List<ElfFile>> supplements) {
        this.elf = elf;
        this.supplements = supplements;
    }

    SymbolTable table() {
        SymbolTable t = table;
        if (t == null) {
            // Benign race: two threads may both build it; the tables are equal.
            t = SymbolTable.of(elf, supplements.get());
            table = t;
        }
        return t;
    }

    List<SourceFrame> cached(long pc) {
        return answers.get(pc);
    }

    void remember(long pc, List<SourceFrame> frames) {
        if (answers.size() >= MAX_CACHED) answers.clear();
        answers.put(pc, frames);
    }

    synchronized boolean decided() {
        return decided;
    }

    /** @param target the file to hand llvm-symbolizer, or null to use the symbol table only */
    synchronized void decide(Path target) {
        decided = true;
        llvmTarget = target;
    }

    /** After llvm-symbolizer failed on this image: from now on the symbol table only. */
    synchronized void giveUpOnLlvm() {
        decided = true;
        llvmTarget = null;
    }

    synchronized Path llvmTarget() {
        return llvmTarget;
    }
}
