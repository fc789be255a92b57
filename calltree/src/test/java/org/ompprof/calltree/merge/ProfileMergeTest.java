package org.ompprof.calltree.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.sampler.UserError;

class ProfileMergeTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 50})
    void mergingFilesIsAssociative(long seed) throws Exception {
        Path a = ProfileFiles.write(dir.resolve("a.ompprof"), seed);
        Path b = ProfileFiles.write(dir.resolve("b.ompprof"), seed + 1000);
        Path c = ProfileFiles.write(dir.resolve("c.ompprof"), seed + 2000);
        ProfileMerge.merge(List.of(a, b), dir.resolve("ab.ompprof"));
        ProfileMerge.merge(List.of(dir.resolve("ab.ompprof"), c), dir.resolve("ab_c.ompprof"));
        ProfileMerge.merge(List.of(b, c), dir.resolve("bc.ompprof"));
        ProfileMerge.merge(List.of(a, dir.resolve("bc.ompprof")), dir.resolve("a_bc.ompprof"));
        ProfileMerge.Result flat = ProfileMerge.merge(List.of(a, b, c), dir.resolve("abc.ompprof"));
        ProfileFiles.Contents expected = ProfileFiles.Contents.of(dir.resolve("abc.ompprof"));
        assertEquals(expected, ProfileFiles.Contents.of(dir.resolve("ab_c.ompprof")));
        assertEquals(expected, ProfileFiles.Contents.of(dir.resolve("a_bc.ompprof")));

        ProfileFiles.Contents ca = ProfileFiles.Contents.of(a),
                cb = ProfileFiles.Contents.of(b),
                cc = ProfileFiles.Contents.of(c);
        assertEquals(ca.handlerCalls() + cb.handlerCalls() + cc.handlerCalls(), expected.handlerCalls());
        assertEquals(
                ca.threads().size() + cb.threads().size() + cc.threads().size(),
                expected.threads().size());
        assertEquals(
                ca.timelines().size() + cb.timelines().size() + cc.timelines().size(),
                expected.timelines().size());
        long samples =
                expected.timelines().values().stream().mapToLong(List::size).sum();
        assertEquals(samples, flat.samples());
        assertEquals(21L, expected.blame().get("waited_ns.barrier"));
        assertEquals("./app " + (seed + 1000), expected.metadata().get("input.1.command"));
        assertEquals(b.toString(), expected.metadata().get("input.1.source"));
        assertEquals("wall", expected.metadata().get("mode"));
    }

    @Test
    void theSameRunTwiceDoublesEveryValueOnNewThreads() throws Exception {
        Path a = ProfileFiles.write(dir.resolve("a.ompprof"), 9);
        ProfileMerge.merge(List.of(a, a), dir.resolve("aa.ompprof"));
        ProfileFiles.Contents one = ProfileFiles.Contents.of(a),
                two = ProfileFiles.Contents.of(dir.resolve("aa.ompprof"));
        long offset = Long.parseLong(two.metadata().get("input.1.thread_offset"));
        assertTrue(offset > 0);
        one.values().forEach((key, v) -> {
            assertEquals(v, two.values().get(key), "first copy keeps its thread numbers: " + key);
            assertEquals(
                    v,
                    two.values().get(List.of(key.get(0), (int) key.get(1) + (int) offset, key.get(2))),
                    "second copy moved up");
        });
        assertEquals(2 * one.values().size(), two.values().size());
    }

    @Test
    void aFileThatIsNotAProfileIsOneClearError() throws Exception {
        Path a = ProfileFiles.write(dir.resolve("a.ompprof"), 9);
        Path junk = Files.writeString(dir.resolve("junk.ompprof"), "not a profile");
        UserError e =
                assertThrows(UserError.class, () -> ProfileMerge.merge(List.of(a, junk), dir.resolve("out.ompprof")));
        assertTrue(e.getMessage().contains("junk.ompprof"), e.getMessage());
        assertTrue(Files.notExists(dir.resolve("out.ompprof")), "no half-written output");
    }

    @Test
    void diffHoldsBothRunsAndTheirDifference() throws Exception {
        Path a = ProfileFiles.write(dir.resolve("a.ompprof"), 4), b = ProfileFiles.write(dir.resolve("b.ompprof"), 5);
        ProfileDiffer.diff(a, b, dir.resolve("d.ompprof"));
        ProfileFiles.Contents ca = ProfileFiles.Contents.of(a),
                cb = ProfileFiles.Contents.of(b),
                d = ProfileFiles.Contents.of(dir.resolve("d.ompprof"));
        assertEquals(cb.timelines(), d.timelines(), "the diff is B's profile");
        assertEquals(a.toString(), d.metadata().get(ProfileDiffer.BASE_FILE));
        assertEquals("./app 4", d.metadata().get(ProfileDiffer.BASE_METADATA + "command"));
        cb.values().forEach((k, v) -> assertEquals(v, d.values().get(k)));
        ca.values().forEach((k, v) -> assertEquals(v, d.values().get(List.of(k.get(0), k.get(1), "a." + k.get(2)))));
        for (Map.Entry<List<Object>, Long> e : cb.values().entrySet()) {
            List<Object> k = e.getKey();
            long delta = e.getValue() - ca.values().getOrDefault(k, 0L);
            assertEquals(
                    delta, d.values().getOrDefault(List.of(k.get(0), k.get(1), "delta." + k.get(2)), 0L), k.toString());
        }
    }
}
