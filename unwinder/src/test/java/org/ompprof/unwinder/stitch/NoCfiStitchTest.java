package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * nocfi.c: assembly functions without call-frame information (a frameless leaf, a frame that saves registers and
 * branches around its calls, a frame-pointer frame with an aligned stack, OpenBLAS's page-aligned 28 KiB frame kept in
 * rbx) are unwound from their machine code: every sample in them has its whole path, serial or in the parallel region,
 * and none is truncated.
 */
class NoCfiStitchTest {
    private static final Set<String> ASM = Set.of("asm_leaf", "asm_outer", "asm_aligned", "asm_bigframe");
    static Stitched run;

    @BeforeAll
    static void record() {
        run = Stitched.of(StitchPrograms.recording("nocfi", Map.of()));
    }

    @Test
    void samplesInCodeWithoutCfiHaveTheirWholePath() {
        List<Stitched.Pair> inAsm = run.samples().stream()
                .filter(p -> !p.stitched().userNames().isEmpty()
                        && ASM.contains(p.stitched().userNames().getLast()))
                .toList();
        // about 0.4 s of the program's time in them, on 1 and 2 threads: hundreds of samples
        assertTrue(inAsm.size() > 100, inAsm.size() + " samples in the assembly functions");
        Expect.all(
                "samples in assembly without CFI",
                inAsm,
                n -> n.sample().kind() == StitchedSample.Kind.EXACT && expected(n.userNames()));
        long aligned = inAsm.stream()
                .filter(p -> p.stitched().userNames().contains("asm_aligned"))
                .count();
        assertTrue(aligned > 10, aligned + " samples under asm_aligned, whose frame only rbp finds");
        long big = inAsm.stream()
                .filter(p -> p.stitched().userNames().contains("asm_bigframe"))
                .count();
        assertTrue(big > 10, big + " samples in asm_bigframe, whose frame is larger than the stack copied from rsp");
    }

    @Test
    void nothingIsTruncated() {
        assertTrue(
                run.counters().samples(StitchedSample.Kind.TRUNCATED) == 0,
                () -> run.described(StitchedSample.Kind.TRUNCATED));
        assertTrue(
                run.counters().samples(StitchedSample.Kind.UNRESOLVED) == 0,
                () -> run.described(StitchedSample.Kind.UNRESOLVED));
        Expect.consistent(run);
    }

    private static boolean expected(List<String> names) {
        List<String> head = names.size() > 2 && names.get(2).equals("run.omp_outlined")
                ? names.subList(0, 3)
                : names.subList(0, Math.min(2, names.size()));
        List<String> rest = names.subList(head.size(), names.size());
        boolean opened = head.equals(List.of("main", "run")) || head.equals(List.of("main", "run", "run.omp_outlined"));
        return opened
                && (rest.equals(List.of("asm_outer"))
                        || rest.equals(List.of("asm_outer", "asm_leaf"))
                        || rest.equals(List.of("asm_aligned"))
                        || rest.equals(List.of("asm_bigframe"))
                        || rest.equals(List.of("asm_aligned", "asm_leaf")));
    }
}
