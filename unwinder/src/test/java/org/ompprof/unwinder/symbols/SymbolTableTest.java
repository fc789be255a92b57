package org.ompprof.unwinder.symbols;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.Symbol;

class SymbolTableTest {
    @Test
    void namesGlobalAndStaticFunctions() throws Exception {
        ElfFile elf = ElfFile.read(SymbolsFixture.binaries().debug());
        SymbolTable table = SymbolTable.of(elf);
        for (String name : List.of("main", "exported_global", "hidden_static")) {
            Symbol s = SymbolsFixture.symbol(elf, name);
            assertEquals(name, table.lookup(s.value()).name());
            assertEquals(name, table.lookup(s.value() + s.size() - 1).name(), "last byte of " + name);
        }
        assertEquals(0, SymbolsFixture.symbol(elf, "hidden_static").bind(), "hidden_static should be local");
    }

    @Test
    void zeroSizeSymbolReachesTheNextOne() throws Exception {
        ElfFile elf = ElfFile.read(SymbolsFixture.binaries().debug());
        SymbolTable table = SymbolTable.of(elf);
        Symbol zero = SymbolsFixture.symbol(elf, "zero_size_asm"), after = SymbolsFixture.symbol(elf, "after_asm");
        assertEquals(0, zero.size());
        assertEquals("zero_size_asm", table.lookup(zero.value() + 3).name());
        assertEquals(after.value(), table.lookup(zero.value() + 3).end());
        assertEquals("after_asm", table.lookup(after.value()).name());
    }

    @Test
    void prefersGlobalOverLocalOverWeak() throws Exception {
        ElfFile elf = ElfFile.read(SymbolsFixture.binaries().debug());
        long at = SymbolsFixture.symbol(elf, "pref_global").value();
        assertEquals(at, SymbolsFixture.symbol(elf, "pref_weak").value());
        assertEquals(at, SymbolsFixture.symbol(elf, "pref_local").value());
        assertEquals("pref_global", SymbolTable.of(elf).lookup(at).name());
    }

    /** The alignment padding after a sized function belongs to no function. */
    @Test
    void pcPastASizedSymbolIsNotInIt() throws Exception {
        ElfFile elf = ElfFile.read(SymbolsFixture.binaries().debug());
        SymbolTable table = SymbolTable.of(elf);
        List<Symbol> functions = elf.symbols().stream()
                .filter(s -> s.type() == SymbolTable.STT_FUNC && s.size() > 0)
                .sorted(Comparator.comparingLong(Symbol::value))
                .toList();
        Symbol withGap = null;
        for (int i = 0; i + 1 < functions.size() && withGap == null; i++) {
            Symbol s = functions.get(i);
            if (s.value() + s.size() < functions.get(i + 1).value() && table.lookup(s.value() + s.size()) == null)
                withGap = s;
        }
        assertTrue(withGap != null, "expected padding after some function");
        long pc = withGap.value() + withGap.size();
        assertNull(table.lookup(pc));
        assertEquals(
                "symbols-debug+0x" + Long.toHexString(pc - table.baseVaddr()), table.nameOrOffset(pc, "symbols-debug"));
    }

    @Test
    void strippedModuleRendersAsNamePlusOffset() throws Exception {
        SymbolsFixture.Binaries b = SymbolsFixture.binaries();
        ElfFile debug = ElfFile.read(b.debug()), stripped = ElfFile.read(b.stripped());
        SymbolTable table = SymbolTable.of(stripped);
        long pc = SymbolsFixture.symbol(debug, "hidden_static").value() + 2;
        assertNull(table.lookup(pc));
        assertEquals("symbols-stripped+0x" + Long.toHexString(pc), table.nameOrOffset(pc, "symbols-stripped"));
        assertEquals(0, table.baseVaddr(), "a PIE's first PT_LOAD is at 0");
    }

    @Test
    void unknownBelowTheFirstSymbol() throws Exception {
        SymbolTable table =
                SymbolTable.of(ElfFile.read(SymbolsFixture.binaries().debug()));
        assertNull(table.lookup(0));
        assertNull(table.lookup(-1));
        assertNotEquals(0, table.size());
    }
}
