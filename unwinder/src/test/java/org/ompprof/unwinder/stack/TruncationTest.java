package org.ompprof.unwinder.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ompprof.unwinder.stack.SelfStackFixture.Case;
import org.ompprof.unwinder.stack.SelfStackFixture.Oracle;

/** A real stack cut at every 8-byte boundary: always a prefix of the full chain, never an invented frame. */
class TruncationTest {

    static List<Case> cases() {
        return SelfStackFixture.cases();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void cutStacksGivePrefixes(Case c) throws Exception {
        SelfStackCapture capture = SelfStackFixture.capture(c);
        StackUnwinder unwinder = new StackUnwinder(SelfStackFixture.addressSpace(capture));
        UnwindResult full = unwinder.unwind(capture.registers(), capture.snapshot());
        Set<Termination> cutEndings = c.build().oracle == Oracle.MACHINE_CODE
                ? Set.of(Termination.TRUNCATED, Termination.NO_CFI_FALLBACK_FP)
                : Set.of(Termination.TRUNCATED);
        int previous = 0;
        for (int length = 0; length <= capture.snapshot().length(); length += 8) {
            UnwindResult cut =
                    unwinder.unwind(capture.registers(), capture.snapshot().truncated(length));
            String report = c + " cut at " + length + ":\n" + TestSymbols.describe(cut) + "full:\n"
                    + TestSymbols.describe(full);
            int n = cut.frames().size();
            assertTrue(n <= full.frames().size(), report);
            assertEquals(full.frames().subList(0, n), cut.frames(), report);
            assertTrue(n >= previous, "a longer snapshot lost frames: " + report);
            if (n < full.frames().size()) assertTrue(cutEndings.contains(cut.termination()), report);
            else assertEquals(full.termination(), cut.termination(), report);
            previous = n;
        }
        assertEquals(full.frames().size(), previous);
    }
}
