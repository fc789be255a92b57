package org.ompprof.calltree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.calltree.profile.FrameTableCodec;
import org.ompprof.calltree.profile.LineTable;
import org.ompprof.calltree.profile.LineTableCodec;
import org.ompprof.calltree.profile.MetricCodec;
import org.ompprof.calltree.profile.MpiCallTable;
import org.ompprof.calltree.profile.MpiCallTableCodec;
import org.ompprof.calltree.profile.MutexTable;
import org.ompprof.calltree.profile.MutexTableCodec;
import org.ompprof.calltree.profile.RegionTable;
import org.ompprof.calltree.profile.RegionTableCodec;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.calltree.profile.TimelineCodec;
import org.ompprof.sampler.recording.BadSectionException;

/** The profile sections round-trip exactly, and damaged bytes give a BadSectionException, never anything else. */
class ProfileCodecTest {
    private static CallingContextTree randomTree(long seed, int samples) {
        CallingContextTree tree = CallingContextTree.create();
        new RandomProfile(seed, samples).buildInto(tree);
        return tree;
    }

    private static CallingContextTree roundTrip(CallingContextTree tree) {
        FrameTable frames = FrameTableCodec.decode(FrameTableCodec.encode(tree.frames()));
        MetricRegistry metrics = MetricCodec.decode(MetricCodec.encode(tree.metrics()));
        return TreeCodec.decode(TreeCodec.encode(tree), frames, metrics);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 42, 977})
    void treeRoundTripsWithTheSameIdsAndValues(long seed) {
        CallingContextTree tree = randomTree(seed, 2000);
        CallingContextTree back = roundTrip(tree);
        assertEquals(tree.size(), back.size());
        for (int node = 1; node < tree.size(); node++) {
            assertEquals(tree.parent(node), back.parent(node));
            assertEquals(tree.frameOf(node), back.frameOf(node));
        }
        assertEquals(tree.metrics().all(), back.metrics().all());
        assertEquals(NaiveTree.contents(tree), NaiveTree.contents(back));
    }

    /**
     * Frames shown otherwise than the compiler named them keep their symbol through a file; cuts and damage fail
     * cleanly.
     */
    @ParameterizedTest
    @ValueSource(longs = {5, 6, 7})
    void framesKeepTheirSymbols(long seed) {
        Random random = new Random(seed);
        CallingContextTree tree = randomTree(seed, 500);
        FrameTable frames = tree.frames();
        int named = 0;
        for (int i = 0; i < frames.size(); i++) {
            Frame f = frames.frame(i);
            if (f.function() != null && random.nextBoolean() && frames.replace(i, f.named("shown " + i))) named++;
        }
        assertTrue(named > 0);
        byte[] bytes = FrameTableCodec.encode(frames);
        FrameTable back = FrameTableCodec.decode(bytes);
        assertEquals(frames.size(), back.size());
        for (int i = 0; i < frames.size(); i++) assertEquals(frames.frame(i), back.frame(i));
        for (int i = 0; i < frames.size(); i++) {
            if (frames.frame(i).symbol() != null)
                assertEquals("shown " + i, back.frame(i).function());
        }
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> damage(random, bytes, FrameTableCodec::decode));
    }

    /** A FRAMES section written before frames had symbols (no version marker) still reads. */
    @Test
    void versionOneFrameTableStillReads() {
        // strings: "app", "main"; one USER frame (app, main, no file), line 3, offset 0
        byte[] v1 = {2, 3, 'a', 'p', 'p', 4, 'm', 'a', 'i', 'n', 1, 0, 1, 2, 0, 3, 0};
        FrameTable t = FrameTableCodec.decode(v1);
        assertEquals(1, t.size());
        assertEquals(new Frame(FrameKind.USER, "app", "main", null, 3, 0), t.frame(0));
        assertEquals(0, FrameTableCodec.decode(new byte[] {0, 0}).size());
    }

    /** A loaded tree builds its look-up indexes on first use: adding to it finds the loaded nodes and slots. */
    @ParameterizedTest
    @ValueSource(longs = {8, 9})
    void loadedTreeKeepsGrowingLikeTheOriginal(long seed) {
        CallingContextTree tree = randomTree(seed, 1500);
        CallingContextTree back = roundTrip(tree);
        RandomProfile more = new RandomProfile(seed + 100, 500);
        CallingContextTree expected = randomTree(seed, 1500);
        more.buildInto(expected);
        more.buildInto(back);
        assertEquals(NaiveTree.contents(expected), NaiveTree.contents(back));
        assertEquals(expected.size(), back.size());
    }

    @Test
    void emptyTreeRoundTrips() {
        CallingContextTree back = roundTrip(CallingContextTree.create());
        assertEquals(1, back.size());
    }

    private static Timeline randomTimeline(Random random, int size, int nodes) {
        Timeline.Builder b = new Timeline.Builder(random.nextInt(300));
        long time = random.nextLong(1L << 40);
        int node = 0, state = 1;
        long weight = 1_000_000;
        for (int i = 0; i < size; i++) {
            time += random.nextInt(50) == 0 ? -random.nextInt(1000) : 1_000_000 + random.nextInt(20_000) - 10_000;
            if (random.nextInt(4) == 0) node = random.nextInt(nodes);
            if (random.nextInt(10) == 0) state = random.nextInt(0x103);
            if (random.nextInt(30) == 0) weight = random.nextLong(5_000_000);
            b.add(time, node, state, weight);
        }
        return b.build();
    }

    @ParameterizedTest
    @ValueSource(longs = {5, 6, 7})
    void timelineRoundTripsInChunks(long seed) {
        Random random = new Random(seed);
        Timeline t = randomTimeline(random, 5000, 700);
        Timeline.Builder back = new Timeline.Builder(t.thread());
        for (int from = 0; from < t.size(); from += 1234)
            TimelineCodec.decode(TimelineCodec.encode(t, from, Math.min(t.size(), from + 1234)), 700, back);
        Timeline u = back.build();
        assertEquals(t.size(), u.size());
        for (int i = 0; i < t.size(); i++) {
            assertArrayEquals(
                    new long[] {t.timeNs(i), t.node(i), t.state(i), t.weightNs(i)},
                    new long[] {u.timeNs(i), u.node(i), u.state(i), u.weightNs(i)},
                    "sample " + i);
        }
        double perSample = (double) TimelineCodec.encode(t, 0, t.size()).length / t.size();
        assertTrue(perSample < 6, perSample + " bytes per sample before compression");
    }

    private static RegionTable randomRegions(Random r, int nodes) {
        List<RegionTable.Row> rows = new ArrayList<>();
        for (int i = 0, n = r.nextInt(20); i < n; i++) {
            long[] ns = new long[RegionTable.Column.values().length];
            for (int c = 0; c < ns.length; c++) ns[c] = r.nextInt(5) == 0 ? 0 : r.nextLong(1L << 40);
            rows.add(new RegionTable.Row(
                    r.nextInt(nodes),
                    1 + r.nextInt(100),
                    r.nextBoolean() ? null : "src/f" + i + ".c",
                    r.nextInt(500),
                    1 + r.nextInt(64),
                    ns,
                    r.ints(r.nextInt(4), 0, nodes).distinct().sorted().toArray()));
        }
        return new RegionTable(rows);
    }

    private static MutexTable randomMutexes(Random r, int nodes) {
        List<MutexTable.Row> rows = new ArrayList<>();
        for (int i = 0, n = r.nextInt(10); i < n; i++) {
            long waited = r.nextLong(1L << 40);
            rows.add(new MutexTable.Row(
                    r.nextBoolean() ? "" : "lock" + i,
                    "mutex_blame.lock",
                    r.nextBoolean() ? null : "q.c",
                    r.nextInt(200),
                    waited,
                    r.nextInt(nodes + 1) - 1,
                    r.nextLong(waited + 1)));
        }
        return new MutexTable(rows);
    }

    @ParameterizedTest
    @ValueSource(longs = {21, 22, 23})
    void regionAndMutexTablesRoundTripAndFailCleanly(long seed) {
        Random r = new Random(seed);
        RegionTable regions = randomRegions(r, 500);
        RegionTable regionsBack = RegionTableCodec.decode(RegionTableCodec.encode(regions), 500);
        assertEquals(regions.rows().size(), regionsBack.rows().size());
        for (int i = 0; i < regions.rows().size(); i++) {
            RegionTable.Row a = regions.rows().get(i), b = regionsBack.rows().get(i);
            assertEquals(
                    List.of(
                            a.regionNode(),
                            a.instances(),
                            String.valueOf(a.callSiteFile()),
                            a.callSiteLine(),
                            a.thread(),
                            java.util.Arrays.toString(a.bodyNodes())),
                    List.of(
                            b.regionNode(),
                            b.instances(),
                            String.valueOf(b.callSiteFile()),
                            b.callSiteLine(),
                            b.thread(),
                            java.util.Arrays.toString(b.bodyNodes())));
            for (RegionTable.Column c : RegionTable.Column.values()) assertEquals(a.ns(c), b.ns(c));
        }
        // a format 3 profile's rows, without bodies, still read
        byte[] v4 = RegionTableCodec.encode(regions);
        int bodies = 0;
        for (RegionTable.Row row : regions.rows()) {
            bodies += varintSize(row.bodyNodes().length);
            for (int k = 0; k < row.bodyNodes().length; k++)
                bodies += varintSize(row.bodyNodes()[k] - (k == 0 ? 0 : row.bodyNodes()[k - 1]));
        }
        RegionTable v3 = RegionTableCodec.decode(java.util.Arrays.copyOf(v4, v4.length - bodies), 500, 3);
        assertEquals(regions.rows().size(), v3.rows().size());
        for (int i = 0; i < v3.rows().size(); i++) {
            assertEquals(0, v3.rows().get(i).bodyNodes().length);
            assertEquals(regions.rows().get(i).regionNode(), v3.rows().get(i).regionNode());
        }
        MutexTable mutexes = randomMutexes(r, 500);
        assertEquals(mutexes, MutexTableCodec.decode(MutexTableCodec.encode(mutexes), 500));
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            damage(r, RegionTableCodec.encode(regions), b -> RegionTableCodec.decode(b, 500));
            damage(r, MutexTableCodec.encode(mutexes), b -> MutexTableCodec.decode(b, 500));
        });
    }

    @ParameterizedTest
    @ValueSource(longs = {41, 42, 43})
    void mpiCallTableRoundTripsAndFailsCleanly(long seed) {
        Random r = new Random(seed);
        List<org.ompprof.blame.MpiCall> calls = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            long enter = r.nextLong(1L << 50);
            calls.add(new org.ompprof.blame.MpiCall(
                    r.nextInt(64),
                    r.nextInt(1000),
                    r.nextInt(org.ompprof.sampler.wire.Wire.MPI_CALLS),
                    r.nextBoolean() ? r.nextLong() : r.nextInt(5),
                    r.nextInt(64),
                    r.nextLong(1L << 40),
                    r.nextInt(130) - 2,
                    r.nextBoolean() ? -1 : r.nextInt(),
                    enter,
                    enter + r.nextLong(1L << 30),
                    r.nextBoolean() ? 0 : r.nextLong()));
        }
        List<MpiCallTable.ClockMeasure> clocks = new ArrayList<>();
        for (int i = 0; i < 20; i++)
            clocks.add(new MpiCallTable.ClockMeasure(
                    r.nextInt(64), 1 + r.nextInt(2), r.nextLong(1L << 50), r.nextLong(1L << 50), r.nextInt(90_000)));
        MpiCallTable t = new MpiCallTable(calls, clocks);
        assertEquals(t, MpiCallTableCodec.decode(MpiCallTableCodec.encode(t)));
        assertTimeoutPreemptively(
                Duration.ofSeconds(60), () -> damage(r, MpiCallTableCodec.encode(t), MpiCallTableCodec::decode));
    }

    @ParameterizedTest
    @ValueSource(longs = {31, 32, 33})
    void lineTableRoundTripsSortedAndFailsCleanly(long seed) {
        Random r = new Random(seed);
        LineTable.Builder b = new LineTable.Builder(), rowsOnly = new LineTable.Builder();
        java.util.Map<List<Integer>, long[]> paper = new java.util.HashMap<>();
        for (int i = 0; i < 2000; i++) {
            int node = r.nextInt(300), line = 1 + r.nextInt(40);
            long ns = 1 + r.nextInt(1_000_000);
            boolean leaf = r.nextBoolean();
            b.add(node, line, ns, leaf);
            rowsOnly.add(node, line, ns, leaf);
            long[] v = paper.computeIfAbsent(List.of(node, line), k -> new long[2]);
            v[0] += ns;
            if (leaf) v[1] += ns;
        }
        b.add(5, 0, 99, true); // unknown lines are not rows
        // call lines: node 7 called from line 3 for 60 ns, from 4 for 50: 3 leads; node 8 from 2 and 9 alike: a tie
        b.call(7, 3, 30);
        b.call(7, 4, 50);
        b.call(7, 3, 30);
        b.call(8, 2, 10);
        b.call(8, 9, 10);
        b.call(9, 0, 10); // unknown
        for (int i = 0; i < 500; i++) b.call(10 + r.nextInt(200), 1 + r.nextInt(3), 1 + r.nextInt(100));
        LineTable t = b.build();
        LineTable back = LineTableCodec.decode(LineTableCodec.encode(t), 300);
        assertEquals(paper.size(), back.size());
        for (int i = 0; i < back.size(); i++) {
            LineTable.Row row = back.row(i);
            assertEquals(t.row(i), row);
            long[] v = paper.get(List.of(row.node(), row.line()));
            assertEquals(v[0], row.inclusiveNs());
            assertEquals(v[1], row.exclusiveNs());
            if (i > 0)
                assertTrue(
                        back.row(i - 1).node() < row.node() || back.row(i - 1).line() < row.line(),
                        "sorted by (node, line)");
        }
        int node = back.row(back.size() / 2).node();
        LineTable.Row[] ofNode = back.of(node);
        assertEquals(paper.keySet().stream().filter(k -> k.get(0) == node).count(), ofNode.length);
        for (LineTable.Row row : ofNode) assertEquals(node, row.node());
        assertEquals(3, back.callLine(7));
        assertEquals(0, back.callLine(8));
        assertEquals(0, back.callLine(9));
        for (int n = 0; n < 300; n++) assertEquals(t.callLine(n), back.callLine(n), "call line of " + n);
        // a format 3 profile's table, without call lines, still reads
        byte[] withoutCalls = LineTableCodec.encode(rowsOnly.build()); // the rows, then a count of 0 call lines
        LineTable v3 = LineTableCodec.decode(java.util.Arrays.copyOf(withoutCalls, withoutCalls.length - 1), 300, 3);
        assertEquals(t.size(), v3.size());
        for (int i = 0; i < t.size(); i++) assertEquals(t.row(i), v3.row(i));
        assertEquals(0, v3.callLine(7));
        assertTimeoutPreemptively(
                Duration.ofSeconds(60),
                () -> damage(r, LineTableCodec.encode(t), bytes -> LineTableCodec.decode(bytes, 300)));
    }

    private static int varintSize(long v) {
        int n = 1;
        while ((v >>>= 7) != 0) n++;
        return n;
    }

    /** Every prefix, and random damage: a clear error or a valid decode, nothing else, and quickly. */
    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13, 14})
    void damagedSectionsFailCleanly(long seed) {
        Random random = new Random(seed);
        CallingContextTree tree = randomTree(seed, 300);
        FrameTable frames = tree.frames();
        MetricRegistry metrics = tree.metrics();
        byte[] framesBytes = FrameTableCodec.encode(frames),
                metricBytes = MetricCodec.encode(metrics),
                treeBytes = TreeCodec.encode(tree);
        byte[] timelineBytes = TimelineCodec.encode(randomTimeline(random, 300, tree.size()), 0, 300);
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            damage(random, framesBytes, FrameTableCodec::decode);
            damage(random, metricBytes, MetricCodec::decode);
            damage(random, treeBytes, b -> TreeCodec.decode(b, frames, metrics));
            damage(random, timelineBytes, b -> TimelineCodec.decode(b, tree.size(), new Timeline.Builder(0)));
        });
    }

    private static void damage(Random random, byte[] good, Consumer<byte[]> decoder) {
        for (int length = 0; length < good.length; length++) decodeOrFail(Arrays.copyOf(good, length), decoder, true);
        if (good.length == 0) return;
        for (int i = 0; i < 2000; i++) {
            byte[] bad = good.clone();
            int flips = 1 + random.nextInt(4);
            for (int k = 0; k < flips; k++) bad[random.nextInt(bad.length)] = (byte) random.nextInt(256);
            decodeOrFail(bad, decoder, false);
        }
        for (int i = 0; i < 200; i++) {
            byte[] noise = new byte[random.nextInt(200)];
            random.nextBytes(noise);
            decodeOrFail(noise, decoder, false);
        }
    }

    private static void decodeOrFail(byte[] bytes, Consumer<byte[]> decoder, boolean mustFail) {
        try {
            decoder.accept(bytes);
            if (mustFail && bytes.length > 1)
                throw new AssertionError("a cut section of " + bytes.length + " bytes decoded");
        } catch (BadSectionException e) {
            assertTrue(e.offset() >= 0 && e.offset() <= bytes.length, "offset " + e.offset() + " of " + bytes.length);
            assertTrue(!e.getMessage().isBlank());
        }
    }
}
