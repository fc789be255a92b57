package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.sampler.record.Context;
import org.ompprof.sampler.record.SampleRecord;
import org.ompprof.sampler.record.Walk;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.wire.Wire;
import org.ompprof.unwinder.image.ModuleImages;
import org.ompprof.unwinder.stack.Frame;
import org.ompprof.unwinder.stack.Registers;
import org.ompprof.unwinder.stack.StackSnapshot;
import org.ompprof.unwinder.stack.StackUnwinder;
import org.ompprof.unwinder.stack.Termination;
import org.ompprof.unwinder.stack.UnwindResult;

/**
 * The agent's frame walk against the DWARF CFI unwinder, its oracle: recorded with
 * OMPPROF_WALK=check, every sample carries both what the handler walked and a copy of the
 * stack (64 KiB at most: all of it but in bigframes); the unwinder's frames of that copy must
 * begin with exactly the walked frames (pc and sp) as far as the copy reaches, a walk that says it reached the
 * outermost frame must end where the
 * unwinder does, and the walk must get there in nearly every sample the unwinder completes.
 */
class WalkOracleTest {
    /** Samples whose walk stopped short of a stack that the unwinder completed: allowed, not common. */
    private static final double SHORT_WALKS_AT_MOST = 0.05;

    @ParameterizedTest
    @ValueSource(strings = {"bigframes", "recursion", "nested", "tasks", "fib"})
    void walkedFramesAreTheUnwindersFrames(String program) {
        Path recording =
                StitchPrograms.recording(program, Map.of("OMPPROF_WALK", "check"), List.of("--stack-bytes", "65536"));
        List<String> wrong = new ArrayList<>();
        int compared = 0, complete = 0, shortWalks = 0;
        try (Recording r = Recording.open(recording)) {
            StackUnwinder unwinder = new StackUnwinder(new RecordingModules(r, new ModuleImages()).space());
            for (SampleRecord s : r.records()
                    .filter(x -> x instanceof SampleRecord)
                    .map(x -> (SampleRecord) x)
                    .toList()) {
                Walk w = s.walk();
                Context c = s.context();
                if (!w.isCheck() || c.stackLength() == 0) continue; // no stack bounds yet: neither could unwind
                compared++;
                UnwindResult full = unwinder.unwind(
                        new Registers(c.rip(), c.rsp(), c.rbp()), new StackSnapshot(c.rsp(), c.stackBytes()));
                String problem = disagreement(w, full);
                if (problem != null && wrong.size() < 10) wrong.add(problem);
                if (full.termination() == Termination.COMPLETE) {
                    complete++;
                    if (w.stopKind() != Wire.WALK_COMPLETE) shortWalks++;
                }
            }
        }
        // hundreds at 1 kHz; a loaded machine delivers fewer
        assertTrue(compared > 30, program + ": " + compared + " samples compared");
        assertTrue(wrong.isEmpty(), program + ": walk and unwinder disagree:\n" + String.join("\n", wrong));
        assertTrue(
                shortWalks <= SHORT_WALKS_AT_MOST * complete,
                program + ": " + shortWalks + " of " + complete + " complete stacks walked only in part");
    }

    private static String disagreement(Walk w, UnwindResult full) {
        List<Frame> f = full.frames();
        for (int i = 0; i < w.count(); i++) {
            if (i >= f.size() && full.termination() == Termination.TRUNCATED) return null; // the copy ends first
            if (i >= f.size())
                return "walk has " + w.count() + " frames, unwinder " + f.size() + " (" + full.termination() + ")";
            if (f.get(i).pc() != w.pc(i) || f.get(i).sp() != w.sp(i)) {
                return String.format(
                        "frame %d: walk pc %#x sp %#x, unwinder pc %#x sp %#x",
                        i, w.pc(i), w.sp(i), f.get(i).pc(), f.get(i).sp());
            }
        }
        if (w.stopKind() == Wire.WALK_COMPLETE
                && (full.termination() != Termination.COMPLETE || f.size() != w.count())) {
            return "walk complete at " + w.count() + " frames, unwinder " + f.size() + " " + full.termination() + " "
                    + full.detail();
        }
        return null;
    }
}
