package org.ompprof.calltree.build;

import java.util.List;
import org.ompprof.unwinder.clock.Stage;
import org.ompprof.unwinder.clock.StageClock;
import org.ompprof.unwinder.stack.Module;
import org.ompprof.unwinder.stitch.PathFrame;
import org.ompprof.unwinder.stitch.Stitcher;
import org.ompprof.unwinder.symbols.SourceFrame;
import org.ompprof.unwinder.symbols.Symbolizer;

/** The source line of a call site (an OMPT codeptr_ra): where a construct is in the user's code. */
final class SourceLines {
    private SourceLines() {}

    /** The innermost source frame at {@code returnAddress}, or null when there is no debug info or module. */
    static SourceFrame of(Stitcher stitcher, Symbolizer symbolizer, long returnAddress, StageClock clock) {
        return stitcher.callSite(returnAddress)
                .map(f -> of(stitcher, symbolizer, f, clock))
                .orElse(null);
    }

    /** The time goes to {@code clock}'s symbolize stage. */
    static SourceFrame of(Stitcher stitcher, Symbolizer symbolizer, PathFrame f, StageClock clock) {
        if (!(f instanceof PathFrame.Code c)) return null;
        Module m = stitcher.module(c.moduleId()).orElse(null);
        if (m == null) return null;
        Stage was = clock.enter(Stage.SYMBOLIZE);
        try {
            List<SourceFrame> frames = symbolizer.symbolize(m, c.lookupPc());
            return frames.isEmpty() ? null : frames.getFirst();
        } finally {
            clock.enter(was);
        }
    }
}
