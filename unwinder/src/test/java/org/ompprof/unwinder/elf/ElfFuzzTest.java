package org.ompprof.unwinder.elf;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.ompprof.unwinder.cfi.BadCfi;
import org.ompprof.unwinder.cfi.CfiSources;
import org.ompprof.unwinder.cfi.ModuleCfi;
import org.ompprof.unwinder.cfi.RowResult;

/**
 * Coverage-guided fuzzing of the ELF reader (with Jazzer): any bytes either read as an ELF
 * file or fail with an {@link ElfFormatException} that says what and where; every part a
 * reader asks for afterwards (sections, their contents, symbols, build id, needed libraries,
 * the CFI sections and rows) answers or fails the same way. Anything else thrown, an
 * OutOfMemoryError or a hang past the timeout, is a finding. In {@code make test} it runs the
 * committed inputs (src/test/resources/.../ElfFuzzTestInputs); {@code make fuzz} fuzzes.
 */
class ElfFuzzTest {
    @FuzzTest(maxDuration = "60s")
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void elfReader(byte[] image) {
        ElfFile elf;
        try {
            elf = ElfFile.parse(image);
        } catch (ElfFormatException e) {
            clear(e);
            return;
        }
        for (Section s : elf.sections()) {
            try {
                assertNotNull(elf.contents(s));
            } catch (ElfFormatException e) {
                clear(e);
            }
        }
        try {
            elf.symbols();
            elf.definesFunction("__kmpc_fork_call");
            elf.buildId();
            elf.needed();
        } catch (ElfFormatException e) {
            clear(e);
        }
        try {
            ModuleCfi cfi = ModuleCfi.of(CfiSources.of(elf));
            for (Section s : elf.sections()) answer(cfi.rowFor(s.addr()));
        } catch (ElfFormatException e) {
            clear(e);
        }
    }

    private static void clear(ElfFormatException e) {
        assertFalse(e.getMessage() == null || e.getMessage().isBlank(), "an error that says what is wrong");
    }

    private static void answer(RowResult r) {
        assertNotNull(r);
        if (r instanceof BadCfi bad) assertFalse(bad.message().isBlank());
    }
}
