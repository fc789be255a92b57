package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.sampler.record.ParallelBegin;
import org.ompprof.sampler.record.TaskCreate;
import org.ompprof.sampler.recording.ModuleInfo;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.unwinder.image.ModuleImages;
import org.ompprof.unwinder.stack.StackUnwinder;

/**
 * libomp tells each callback its caller's return address (codeptr_ra): the pc in user code
 * right after the call that created the region or task. Every creation segment must end
 * exactly there; an elision rule that kept one runtime frame too many or cut one user frame
 * too many would not. A creation whose shape the thread sent before carries no stack and must
 * name the same site as that first one.
 */
class CreationSiteTest {
    @ParameterizedTest
    @ValueSource(strings = {"regions", "tasks", "nested"})
    void creationSegmentsEndAtTheCallersReturnAddress(String program) {
        Map<String, String> env =
                program.equals("nested") ? StitchPrograms.env("OMP_MAX_ACTIVE_LEVELS", "2") : Map.of();
        try (Recording r = Recording.open(StitchPrograms.recording(program, env))) {
            StitchCounters.Tally tally = new StitchCounters.Tally();
            RecordingModules modules = new RecordingModules(r, new ModuleImages());
            SegmentMaker segments = new SegmentMaker(
                    modules, new ContextUnwinder(new StackUnwinder(modules.space())), new Interner(), tally);
            List<String> wrong = new ArrayList<>();
            int checked = 0;
            Map<Long, Long> siteOfShape = new HashMap<>();
            for (var record : r.records().toList()) {
                long ra;
                Segment s;
                if (record instanceof ParallelBegin p) {
                    ra = p.codeptrRa();
                    s = segments.creation(p.context(), p.encExitFrame(), p.encEnterFrame());
                } else if (record instanceof TaskCreate t && t.sameShape()) {
                    // no stack: it shares the segment of the first creation of its shape, which ends at the same site
                    assertEquals(Long.valueOf(t.codeptrRa()), siteOfShape.get(t.shape()), record.toString());
                    continue;
                } else if (record instanceof TaskCreate t) {
                    ra = t.codeptrRa();
                    siteOfShape.put(t.shape(), ra);
                    s = segments.creation(t.context(), t.encExitFrame(), t.encEnterFrame());
                } else {
                    continue;
                }
                checked++;
                assertEquals(Gap.NONE, s.gap(), record.toString());
                PathFrame.Code site = (PathFrame.Code) s.frames().getLast();
                ModuleInfo m = r.module(site.moduleId()).orElseThrow();
                if (!site.returnAddress() || site.relativePc() + m.loadBias() != ra) {
                    wrong.add(String.format(
                            "%s: segment ends at %s, codeptr_ra 0x%x",
                            record.getClass().getSimpleName(), site, ra));
                }
            }
            assertTrue(checked > 0, "no creation records");
            assertTrue(
                    wrong.isEmpty(),
                    wrong.size() + " of " + checked + ":\n"
                            + String.join("\n", wrong.subList(0, Math.min(10, wrong.size()))));
            assertEquals(0, tally.inexactFrameMatches);
        }
    }
}
