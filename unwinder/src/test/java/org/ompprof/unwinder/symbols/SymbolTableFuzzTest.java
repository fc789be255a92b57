package org.ompprof.unwinder.symbols;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.ElfFormatException;
import org.ompprof.unwinder.elf.Section;

/**
 * Coverage-guided fuzzing of symbol tables (with Jazzer): from any ELF the reader accepts,
 * {@link SymbolTable#of} never throws (a damaged table is empty with a {@code problem()}), and
 * every look-up answers with a symbol that contains the pc, or none.
 */
class SymbolTableFuzzTest {
    @FuzzTest(maxDuration = "60s")
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void symbolTable(byte[] image) {
        ElfFile elf;
        try {
            elf = ElfFile.parse(image);
        } catch (ElfFormatException e) {
            return;
        }
        SymbolTable table = SymbolTable.of(elf);
        if (table.isEmpty() && table.problem() != null)
            assertTrue(!table.problem().isBlank());
        for (Section s : elf.sections()) {
            for (long pc : new long[] {s.addr(), s.addr() + s.size() / 2, s.addr() + s.size() - 1}) {
                SymbolHit hit = table.lookup(pc);
                if (hit != null) assertTrue(hit.start() <= pc && pc < hit.end(), hit + " for pc " + pc);
                assertNotNull(table.nameOrOffset(pc, "module"));
            }
        }
    }
}
