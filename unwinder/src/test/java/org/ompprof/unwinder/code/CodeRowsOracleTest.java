package org.ompprof.unwinder.code;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.unwinder.cfi.ModuleCfi;
import org.ompprof.unwinder.cfi.RuleKind;
import org.ompprof.unwinder.cfi.UnwindRow;
import org.ompprof.unwinder.cfi.X86Registers;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.Symbol;

/**
 * The rows read from machine code against the compilers' own CFI, instruction by instruction, over every function of
 * real libraries that have both: where code reading gives a frame state, its CFA (from rsp, or from rbp as a frame
 * pointer) and the slot it gives rbp must be the ones the CFI gives, and it must give one at nearly every instruction
 * the CFI covers. The libraries are the C library (compiled C with hand-written string functions) and LLVM's OpenMP
 * runtime (C++), both of which every run of ompprof has.
 */
class CodeRowsOracleTest {
    /** Of the instructions code reading reaches in functions with CFI, those whose frame state it must find. */
    private static final double MIN_COVERAGE = 0.99;

    @ParameterizedTest
    @ValueSource(strings = {"/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/llvm-19/lib/libomp.so.5"})
    void codeReadingAgreesWithTheCfi(String library) throws IOException {
        ElfFile elf = ElfFile.read(Path.of(library));
        ModuleCfi cfi = ModuleCfi.of(elf);
        CodeRows code = CodeRows.of(elf);
        Tally t = new Tally();
        for (Symbol f : elf.symbols()) {
            if (!f.isFunction() || f.size() == 0 || !t.firstVisit(f.value())) continue;
            FunctionFrames frames = code.frames(f.value());
            if (frames == null) continue;
            for (int k = 0; k < frames.count(); k++) {
                if (cfi.rowFor(frames.pcAt(k)) instanceof UnwindRow row
                        && !row.cfa().isExpression()) t.compare(f.name(), frames.pcAt(k), row, frames.stateAt(k));
            }
        }
        String summary = library + ": " + t;
        System.out.println(summary);
        assertTrue(t.compared > 10_000, summary);
        assertTrue(t.disagreeing == 0, summary + "\n" + String.join("\n", t.mismatches));
        assertTrue(t.known >= MIN_COVERAGE * t.compared, summary);
    }

    private static final class Tally {
        private final java.util.Set<Long> seen = new java.util.HashSet<>();
        private final List<String> mismatches = new ArrayList<>();
        private long compared, known, checked, disagreeing;

        boolean firstVisit(long start) {
            return seen.add(start);
        }

        void compare(String function, long pc, UnwindRow row, FrameState ours) {
            compared++;
            if (ours == null) return;
            known++;
            int register = row.cfa().register();
            int mine = ours.cfaLess(register);
            if (mine == FrameState.UNKNOWN) return; // the other register's view: nothing to compare
            checked++;
            // Compilers may say where rbp was pushed only once the whole prologue has run, and keep saying it after
            // the epilogue popped it: code reading says it from the push to the pop. Where both say, they agree.
            RuleKind mineRbp = ours.row(pc, pc + 1).rule(X86Registers.RBP).kind();
            boolean rbpAgrees = row.rule(X86Registers.RBP).kind() != RuleKind.OFFSET
                    || mineRbp == RuleKind.UNSPECIFIED
                    || ours.row(pc, pc + 1).rule(X86Registers.RBP).equals(row.rule(X86Registers.RBP));
            if (mine == row.cfa().offset() && rbpAgrees) return;
            if (disagreeing++ < 20)
                mismatches.add(function + " 0x" + Long.toHexString(pc) + ": CFI " + row.describe() + ", code " + ours);
        }

        @Override
        public String toString() {
            return compared + " instructions with CFI rows, " + known + " with a state read from code ("
                    + String.format("%.1f%%", 100.0 * known / Math.max(1, compared)) + "), " + checked
                    + " compared, " + disagreeing + " disagreeing";
        }
    }
}
