package org.ompprof.unwinder.symbols;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A function inlined right into itself is one frame (gfortran's nested copies of a module procedure). */
class InlineRepeatsTest {
    private static SourceFrame frame(String function, int line, boolean inlined) {
        return new SourceFrame(function, "tea_leaf_ppcg.f90", line, 0, inlined, "tea_leaf");
    }

    @Test
    void aProcedureInlinedIntoItselfIsOneFrameAtTheInnerLine() {
        assertEquals(
                List.of(frame("init_sd", 41, true), frame("inner_steps", 228, false)),
                Symbolizer.withoutRepeats(List.of(
                        frame("init_sd", 41, true), frame("init_sd", 33, true), frame("inner_steps", 228, false))));
    }

    @Test
    void intoThePhysicalFrameItStaysPhysical() {
        assertEquals(
                List.of(frame("init_sd", 41, false)),
                Symbolizer.withoutRepeats(List.of(frame("init_sd", 41, true), frame("init_sd", 33, false))));
    }

    @Test
    void differentFunctionsAndUnnamedFramesStay() {
        List<SourceFrame> chain = List.of(
                frame("a", 1, true),
                frame("b", 2, true),
                frame("a", 3, true),
                frame("??", 4, true),
                frame("??", 5, false));
        assertEquals(chain, Symbolizer.withoutRepeats(chain));
        assertEquals(List.of(), Symbolizer.withoutRepeats(List.of()));
    }
}
