package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ompprof.calltree.build.ProfileBuilder;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.SectionKind;

/**
 * A profile built on several threads is the profile built on one: the same recording (a real
 * one, kept raw) built with 1, 2 and 3 threads gives files equal section by section, byte for
 * byte, but for the build's own cost in the metadata. So does the profile {@code record} built
 * in its own JVM with its default (one thread per core).
 */
class ParallelBuildEndToEndTest {
    @TempDir
    Path work;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "many_regions, 20000", // region-heavy: hundreds of thousands of callback records, few samples
        "task_fib, 22", // explicit tasks and their creation contexts
        "two_locks, 3 0.02", // directed blame from mutex records
        "imbalance_loop, ''", // sample-heavy: idle and barrier blame across threads
    })
    void everyThreadCountBuildsTheSameProfile(String program, String args) throws Exception {
        Path recorded = work.resolve(program + ".ompprof");
        List<String> cmd = new ArrayList<>(List.of(
                "record",
                "--keep-raw",
                "-o",
                recorded.toString(),
                "--",
                CPrograms.clang(program).toString()));
        if (!args.isBlank()) cmd.addAll(List.of(args.split(" ")));
        Ompprof.Result r = Ompprof.run(work, Map.of("OMP_NUM_THREADS", "2"), cmd.toArray(String[]::new));
        assertEquals(0, r.status(), r.err());
        Path raw = recorded.resolveSibling(recorded.getFileName() + ".raw");

        Path sequential = build(raw, 1);
        Sections expected = Sections.of(sequential);
        assertTrue(expected.count(SectionKind.TREE) == 1, "a profile: " + expected.kinds());
        for (int threads : new int[] {2, 3}) {
            Sections.of(build(raw, threads)).assertSameAs(expected, threads + " threads");
        }
        Sections.of(recorded).assertSameAs(expected, "record's own build");
    }

    private Path build(Path raw, int threads) throws Exception {
        Path out = work.resolve(raw.getFileName() + "." + threads + ".ompprof");
        try (Recording r = Recording.open(raw)) {
            ProfileBuilder.buildInto(out, r, 0, threads);
        }
        return out;
    }

    /** A file's sections in file order (kind and payload), its metadata without the build's cost. */
    private record Sections(List<SectionKind> kinds, List<byte[]> payloads, Map<String, String> metadata) {
        static Sections of(Path file) {
            List<SectionKind> kinds = new ArrayList<>();
            List<byte[]> payloads = new ArrayList<>();
            Map<String, String> metadata;
            try (Recording r = Recording.open(file)) {
                for (SectionKind k : SectionKind.values()) {
                    if (k == SectionKind.METADATA || k == SectionKind.END) continue;
                    r.forEachSection(k, (key, payload) -> {
                        kinds.add(k);
                        payloads.add(payload);
                    });
                }
                metadata = new TreeMap<>(r.metadata().entries());
            }
            metadata.keySet().removeIf(Sections::isBuildCost);
            return new Sections(kinds, payloads, metadata);
        }

        /** What the build measured of itself: its time per stage and items, the collector's CPU and heap. */
        private static boolean isBuildCost(String key) {
            return key.equals(Metadata.BUILD_WALL_NS)
                    || key.startsWith(Metadata.BUILD_STAGE_NS)
                    || key.startsWith(Metadata.BUILD_STAGE_ITEMS)
                    || key.equals(Metadata.COLLECTOR_CPU_AT_PROFILE_NS)
                    || key.equals(Metadata.COLLECTOR_PEAK_HEAP_BYTES);
        }

        long count(SectionKind kind) {
            return kinds.stream().filter(k -> k == kind).count();
        }

        void assertSameAs(Sections expected, String what) {
            assertEquals(expected.kinds, kinds, what + ": sections");
            for (int i = 0; i < kinds.size(); i++) {
                assertArrayEquals(
                        expected.payloads.get(i), payloads.get(i), what + ": " + kinds.get(i) + " section " + i);
            }
            assertEquals(expected.metadata, metadata, what + ": metadata");
        }
    }
}
