package org.ompprof.unwinder.stack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ompprof.unwinder.cfi.CfiOrigin;
import org.ompprof.unwinder.cfi.RowResult;
import org.ompprof.unwinder.cfi.UnwindRow;
import org.ompprof.unwinder.stack.SelfStackFixture.Case;
import org.ompprof.unwinder.stack.SelfStackFixture.Scenario;

/** Real stacks of a known call chain, unwound in Java and checked against glibc backtrace() and the source. */
class SelfStackTest {

    static List<Case> cases() {
        return SelfStackFixture.cases();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void unwindsLikeTheOracle(Case c) throws Exception {
        SelfStackCapture capture = SelfStackFixture.capture(c);
        UnwindResult r = new StackUnwinder(SelfStackFixture.addressSpace(capture))
                .unwind(capture.registers(), capture.snapshot());
        String report = c + "\n" + TestSymbols.describe(r) + "backtrace(): " + hex(capture.backtrace());

        assertEquals(Termination.COMPLETE, r.termination(), report);
        assertEquals(expectedProgramFrames(c.scenario()), programFrames(r), report);
        assertEquals(FrameKind.EXACT, r.frames().get(0).kind(), report);
        switch (c.build().oracle) {
            case BACKTRACE -> {
                // backtrace()'s first pc is its own return address in c; the callers' pcs must agree exactly.
                long[] ours = r.pcs();
                assertArrayEquals(
                        Arrays.copyOfRange(capture.backtrace(), 1, capture.backtrace().length),
                        Arrays.copyOfRange(ours, 1, ours.length),
                        report);
                assertTrue(r.frames().stream().noneMatch(f -> f.kind() == FrameKind.FRAME_POINTER), report);
            }
            case DEBUG_FRAME ->
                assertRowsFrom(CfiOrigin.DEBUG_FRAME, r.frames().get(0).module().cfi()::rowFor, r, report);
            // no CFI: the rows come from the machine code (org.ompprof.unwinder.code), not a frame-pointer guess
            case MACHINE_CODE ->
                assertRowsFrom(CfiOrigin.CODE, r.frames().get(0).module().code()::rowFor, r, report);
        }
        if (c.scenario() == Scenario.SIGNAL) assertSignalFrame(r, report);
        if (c.scenario() == Scenario.QSORT) assertLibcBetween(r, "cmp", "b", report);
    }

    /** The first frame's row came from {@code origin}, and no frame from a frame-pointer guess. */
    private static void assertRowsFrom(CfiOrigin origin, RowSource rows, UnwindResult r, String report) {
        UnwindRow row = (UnwindRow) rows.rowFor(r.frames().get(0).relativeLookupPc());
        assertEquals(origin, row.origin(), report);
        assertTrue(r.frames().stream().noneMatch(f -> f.kind() == FrameKind.FRAME_POINTER), report);
    }

    private interface RowSource {
        RowResult rowFor(long pc);
    }

    /** After the trampoline comes the interrupted frame, whose pc is exact, not a return address. */
    private static void assertSignalFrame(UnwindResult r, String report) {
        int handler = indexOf(r, "on_signal");
        Frame trampoline = r.frames().get(handler + 1);
        Frame interrupted = r.frames().get(handler + 2);
        assertTrue(trampoline.module().name().contains("libc.so"), report);
        assertTrue(trampoline.isReturnAddress(), report);
        assertEquals(FrameKind.EXACT, interrupted.kind(), report);
        assertTrue(((UnwindRow) trampoline.module().cfi().rowFor(trampoline.relativeLookupPc())).signalFrame(), report);
        assertLibcBetween(r, "on_signal", "b", report);
    }

    private static void assertLibcBetween(UnwindResult r, String inner, String outer, String report) {
        List<Frame> between = r.frames().subList(indexOf(r, inner) + 1, indexOf(r, outer));
        assertTrue(
                !between.isEmpty()
                        && between.stream().allMatch(f -> f.module().name().contains("libc.so")),
                report);
    }

    private static int indexOf(UnwindResult r, String function) {
        for (int i = 0; i < r.frames().size(); i++) {
            if (TestSymbols.name(r.frames().get(i)).equals(function)) return i;
        }
        throw new AssertionError(function + " not among the frames");
    }

    static List<String> expectedProgramFrames(Scenario s) {
        return switch (s) {
            case DIRECT -> List.of("c", "b", "a", "main", "_start");
            case QSORT -> List.of("c", "cmp", "b", "a", "main", "_start");
            case SIGNAL -> List.of("c", "on_signal", "b", "a", "main", "_start");
        };
    }

    /** Names of the frames in the test program itself, innermost first. */
    static List<String> programFrames(UnwindResult r) {
        return r.frames().stream()
                .filter(f -> f.module() != null && f.module().name().contains("selfstack-"))
                .map(TestSymbols::name)
                .toList();
    }

    static String hex(long[] pcs) {
        return Arrays.stream(pcs).mapToObj(Long::toHexString).toList().toString();
    }
}
