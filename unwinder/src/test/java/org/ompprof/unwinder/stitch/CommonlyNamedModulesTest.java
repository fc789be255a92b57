package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.sampler.recording.ReadAhead;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.unwinder.clock.StageClock;
import org.ompprof.unwinder.image.ModuleImages;
import org.ompprof.unwinder.stack.Module;

/**
 * The modules nearly every profile names, told once the modules are loaded (for a symbolizer to load them while the
 * index is built): the program and the C library, nothing else (not the runtime, not the agent); and every sampled
 * path known to its root begins in one of them.
 */
class CommonlyNamedModulesTest {
    @ParameterizedTest
    @ValueSource(strings = {"fib", "regions"})
    void theProgramAndTheCLibrary(String program) {
        try (Recording r = Recording.open(StitchPrograms.recording(program, Map.of()))) {
            List<List<Module>> told = new ArrayList<>();
            Stitcher st = Stitcher.of(r, new ModuleImages(), StageClock.off(), ReadAhead.NONE, told::add);
            assertEquals(1, told.size(), "told once, by the time the index is built");
            Set<String> names = told.getFirst().stream().map(Module::name).collect(Collectors.toSet());
            assertTrue(names.stream().anyMatch(n -> n.endsWith("/" + program)), "the program: " + names);
            assertTrue(names.stream().anyMatch(n -> n.contains("/libc.so")), "the C library: " + names);
            assertTrue(
                    names.stream().allMatch(n -> n.endsWith("/" + program) || n.contains("/libc.so")),
                    "nothing else: " + names);
            long rooted = 0;
            for (StitchedSample s : all(st.samplesInTimeOrder())) {
                if (s.pathRootFirst().isEmpty() || !(s.pathRootFirst().getFirst() instanceof PathFrame.Code root))
                    continue;
                Module m = st.module(root.moduleId()).orElse(null);
                assertNotNull(m, "the outermost frame's module is loaded: " + root);
                assertTrue(told.getFirst().contains(m), s.pathRootFirst() + " begins in " + m.name());
                rooted++;
            }
            assertTrue(rooted > 100, rooted + " samples with a path from its root");
        }
    }

    private static List<StitchedSample> all(Iterator<StitchedSample> samples) {
        List<StitchedSample> out = new ArrayList<>();
        samples.forEachRemaining(out::add);
        return out;
    }
}
