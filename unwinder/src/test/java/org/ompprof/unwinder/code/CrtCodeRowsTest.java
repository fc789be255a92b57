package org.ompprof.unwinder.code;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.unwinder.cfi.CfiOrigin;
import org.ompprof.unwinder.cfi.ModuleCfi;
import org.ompprof.unwinder.cfi.NoCfi;
import org.ompprof.unwinder.cfi.TestProcesses;
import org.ompprof.unwinder.cfi.UnwindRow;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.Symbol;

/**
 * The code every program links from crt (crti.o's {@code _init} and {@code _fini}, crtbegin's
 * {@code __do_global_dtors_aux} and its helpers) has no CFI: a sample there at the program's exit came out
 * {@code <truncated>;__do_global_dtors_aux}. Read from its machine code, every instruction of it has a row, and each
 * function's entry has the caller's return address on top of the stack.
 */
class CrtCodeRowsTest {
    private static final List<String> CRT =
            List.of("_init", "_fini", "__do_global_dtors_aux", "deregister_tm_clones", "register_tm_clones");

    @ParameterizedTest
    @ValueSource(strings = {"/usr/bin/clang-19", "/usr/bin/gcc"})
    void crtCodeHasRowsEverywhere(String compiler, @TempDir Path dir) throws Exception {
        Path source = dir.resolve("hello.c");
        Files.writeString(source, "int main(void) { return 0; }\n");
        Path binary = dir.resolve("hello");
        TestProcesses.run(List.of(compiler, "-O2", "-o", binary.toString(), source.toString()));
        ElfFile elf = ElfFile.read(binary);
        ModuleCfi cfi = ModuleCfi.of(elf);
        CodeRows code = CodeRows.of(elf);
        int functions = 0;
        for (Symbol s : elf.symbols()) {
            if (!s.isFunction() || !CRT.contains(s.name())) continue;
            assertInstanceOf(NoCfi.class, cfi.rowFor(s.value()), s.name() + " has CFI after all");
            FunctionFrames frames = code.frames(s.value());
            assertNotNull(frames, s.name());
            for (int k = 0; k < frames.count(); k++)
                assertNotNull(frames.stateAt(k), s.name() + " at 0x" + Long.toHexString(frames.pcAt(k)));
            UnwindRow entry = assertInstanceOf(UnwindRow.class, code.rowFor(s.value()));
            assertEquals("CFA=RSP+8: RIP=[CFA-8]", entry.describe(), s.name());
            assertEquals(CfiOrigin.CODE, entry.origin());
            functions++;
        }
        assertTrue(functions >= 4, functions + " crt functions found in " + binary);
    }
}
