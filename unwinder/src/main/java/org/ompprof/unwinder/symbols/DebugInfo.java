package org.ompprof.unwinder.symbols;

import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.Section;

/**
 * Whether an image carries DWARF line or unit information itself, so that asking
 * llvm-symbolizer about it can tell more than its symbol table. Separate debug files are
 * found by {@link DebugFileLookup}.
 */
final class DebugInfo {
    private DebugInfo() {}

    static boolean hasDwarf(ElfFile elf) {
        for (Section s : elf.sections()) {
            if (s.type() == ElfFile.SHT_NOBITS || s.size() == 0) continue;
            String n = s.name();
            if (n.equals(".debug_info") || n.equals(".debug_line") || n.equals(".zdebug_info")) return true;
        }
        return false;
    }
}
