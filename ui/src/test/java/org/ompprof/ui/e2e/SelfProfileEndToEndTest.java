package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.calltree.profile.ProfileReader;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.unwinder.clock.Stage;

/**
 * {@code --self-profile FILE.jfr}: real runs of the command line on known C programs, the JFR
 * file read back with the JDK's own reader, its {@code ompprof.*} events checked against what
 * the recording itself counted; and the collector's cost in {@code ompprof info}.
 */
class SelfProfileEndToEndTest {
    private static final Map<String, String> TWO_THREADS = Map.of("OMP_NUM_THREADS", "2");

    @TempDir
    Path work;

    private static List<RecordedEvent> events(Path jfr) throws Exception {
        assertTrue(Files.size(jfr) > 0, "no JFR file at " + jfr);
        return RecordingFile.readAllEvents(jfr);
    }

    private static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
        return events.stream()
                .filter(e -> e.getEventType().getName().equals(name))
                .toList();
    }

    @Test
    void recordWritesEveryCollectorAndBuildEventWithFiguresThatMatchTheRecording() throws Exception {
        Path jfr = work.resolve("self.jfr");
        Path profile = work.resolve("imb.ompprof");
        Ompprof.Result r = Ompprof.run(
                work,
                TWO_THREADS,
                "record",
                "--self-profile",
                jfr.toString(),
                "--keep-raw",
                "-o",
                profile.toString(),
                "--",
                CPrograms.clang("imbalance_loop").toString(),
                "0.01",
                "20");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains("wrote the self-profile " + jfr), r.err());
        List<RecordedEvent> all = events(jfr);

        // the JDK's own profiling events are there too: this is a standard recording
        Set<String> types =
                all.stream().map(e -> e.getEventType().getName()).collect(Collectors.toCollection(TreeSet::new));
        for (String jdk :
                List.of("jdk.ExecutionSample", "jdk.CPULoad", "jdk.GCConfiguration", "jdk.ObjectAllocationSample"))
            assertTrue(types.contains(jdk), jdk + " in " + types);
        for (String ours : List.of(
                "ompprof.RingDrain",
                "ompprof.SpoolWrite",
                "ompprof.SymbolizerCall",
                "ompprof.BuildStage",
                "ompprof.ProfileBuild")) {
            assertTrue(types.contains(ours), ours + " missing from " + types);
        }

        // drained records: the drainer's count equals what the agent says it wrote and what the raw recording holds
        long drained = named(all, "ompprof.RingDrain").stream()
                .mapToLong(e -> e.getLong("records"))
                .sum();
        long drainedBytes = named(all, "ompprof.RingDrain").stream()
                .mapToLong(e -> e.getLong("bytes"))
                .sum();
        for (RecordedEvent e : named(all, "ompprof.RingDrain")) {
            assertTrue(e.getLong("records") > 0 && e.getLong("bytes") >= 16 * e.getLong("records"), e::toString);
            assertTrue(
                    e.getInt("rings") > 0 && e.getDouble("peakFill") > 0 && e.getDouble("peakFill") <= 1, e::toString);
            assertTrue(e.getLong("peakFillBytes") <= e.getLong("bytes"), e::toString);
        }
        Path raw = work.resolve("imb.ompprof.raw");
        long agentWrote, stored, collected, dropped;
        try (Recording rec = Recording.open(raw)) {
            agentWrote = rec.stats().rings().stream()
                    .mapToLong(s -> s.sampleRecords() + s.eventRecords())
                    .sum();
            dropped = rec.stats().totalDropped();
            stored = rec.records().count();
            collected = rec.threads().stream()
                    .mapToLong(t -> t.samples() + t.events())
                    .sum();
        }
        assertEquals(0, dropped, "this run should lose nothing");
        // some 800 samples and the callback records on a quiet machine; 484 under load (threads sampled by their CPU)
        assertTrue(drained > 200, "drained " + drained);
        assertEquals(agentWrote, drained, "records the agent committed to its rings vs records drained");
        assertEquals(stored, drained, "records in the raw recording vs records drained");
        assertEquals(collected, drained);
        long spooledRaw = named(all, "ompprof.SpoolWrite").stream()
                .filter(e -> !e.getString("what").equals("module image"))
                .mapToLong(e -> e.getLong("rawBytes"))
                .sum();
        assertTrue(
                spooledRaw > 0 && spooledRaw <= drainedBytes,
                "spooled " + spooledRaw + " of " + drainedBytes + " bytes drained (PADs are not kept)");

        // the build: one event per stage, spanning the build; their times add up to its wall time
        List<RecordedEvent> builds = named(all, "ompprof.ProfileBuild");
        assertEquals(1, builds.size());
        RecordedEvent build = builds.getFirst();
        Duration wall = build.getDuration();
        Map<String, RecordedEvent> stages = new TreeMap<>();
        for (RecordedEvent e : named(all, "ompprof.BuildStage")) stages.put(e.getString("stage"), e);
        assertEquals(Set.of("decode", "unwind", "stitch", "symbolize", "aggregate", "blame", "write"), stages.keySet());
        long sum = stages.values().stream()
                .mapToLong(e -> e.getDuration("stageTime").toNanos())
                .sum();
        assertTrue(
                Math.abs(sum - wall.toNanos()) <= wall.toNanos() / 10,
                "stages add up to " + sum + " ns, the build took " + wall.toNanos() + " ns");
        for (RecordedEvent e : stages.values()) {
            assertTrue(e.getLong("items") > 0, e::toString);
            assertTrue(e.getDuration("stageTime").toNanos() > 0, e::toString);
        }
        long samples, contexts;
        Metadata meta;
        try (Recording p = Recording.open(profile)) {
            var built = ProfileReader.read(p);
            samples = built.samples();
            contexts = built.tree().size();
            meta = p.metadata();
        }
        assertEquals(samples, build.getLong("samples"));
        assertEquals(contexts, build.getLong("contexts"));
        assertEquals(Files.size(profile), build.getLong("bytes"));
        assertEquals(
                Files.size(profile),
                stages.get("write").getLong("items"),
                "the write stage counts the profile's bytes");
        assertEquals(
                stored, stages.get("decode").getLong("items"), "every record of the raw recording is decoded once");
        assertEquals(samples, stages.get("stitch").getLong("items"));
        assertEquals(samples, stages.get("aggregate").getLong("items"));
        assertEquals(samples, stages.get("blame").getLong("items"));
        assertTrue(named(all, "ompprof.SymbolizerCall").stream()
                .anyMatch(e -> e.getString("source").equals("llvm-symbolizer")
                        && e.getString("module").equals("imbalance_loop")
                        && e.getInt("pcs") > 0));

        // the same build in the profile's metadata: stages up to the metadata's own writing
        long metaWall = meta.getLong(Metadata.BUILD_WALL_NS, -1);
        long metaSum = 0;
        for (Stage s : Stage.values()) metaSum += meta.getLong(Metadata.BUILD_STAGE_NS + s.key(), -1);
        assertTrue(metaWall > 0 && metaWall <= wall.toNanos(), metaWall + " vs " + wall);
        assertTrue(Math.abs(metaSum - metaWall) <= metaWall / 100, metaSum + " vs " + metaWall);
        assertTrue(meta.getLong(Metadata.COLLECTOR_CPU_AT_START_NS, -1) > 0);
        assertTrue(meta.getLong(Metadata.COLLECTOR_CPU_AT_END_NS, -1)
                >= meta.getLong(Metadata.COLLECTOR_CPU_AT_START_NS, -1));
        assertTrue(meta.getLong(Metadata.COLLECTOR_CPU_AT_PROFILE_NS, -1)
                > meta.getLong(Metadata.COLLECTOR_CPU_AT_END_NS, -1));
        long rss = meta.getLong(Metadata.COLLECTOR_PEAK_RSS_BYTES, -1);
        assertTrue(rss > meta.getLong(Metadata.COLLECTOR_PEAK_HEAP_BYTES, -1) / 2 && rss < 4L << 30, "peak RSS " + rss);

        // and ompprof info shows it
        Ompprof.Result info = Ompprof.run(work, Map.of(), "info", profile.toString());
        assertEquals(0, info.status(), info.err());
        String text = info.out();
        for (String line : List.of(
                "collector cost (the ompprof JVM, all its threads)",
                "  CPU time:           ",
                " starting up, ",
                " while the program ran (",
                " building the profile",
                "  peak heap:          ",
                "  peak RSS:           ",
                "  profile build:      ")) {
            assertTrue(text.contains(line), () -> "missing '" + line + "' in\n" + text);
        }
        for (Stage s : Stage.values()) {
            assertTrue(
                    text.lines().anyMatch(l -> l.startsWith("    " + s.key() + " ") && l.contains(" s ")),
                    () -> s + " missing in\n" + text);
        }
    }

    @Test
    void dropsAreEventsAsTheyHappenAndAddUpToTheRecordingsCount() throws Exception {
        Path jfr = work.resolve("drops.jfr");
        Path profile = work.resolve("spin.ompprof");
        // One slot for two threads: the worker's records are dropped, whatever the load. And a ring of a few samples,
        // filled at 20 kHz: on a quiet machine the drainer (waking at most every millisecond) cannot keep up; on a
        // loaded one the program's threads get too little CPU to outrun it (under-load 2: no ring full in 3 of 3), so
        // the ring-full events are checked in SimulatedRunTest too. The handler copies whole 8 KiB stack slices (its
        // frame walk off: walked samples are a few hundred bytes)
        Map<String, String> env = new java.util.HashMap<>(TWO_THREADS);
        env.put("OMPPROF_WALK", "off");
        Ompprof.Result r = Ompprof.run(
                work,
                env,
                "record",
                "--self-profile=" + jfr,
                "--slots",
                "1",
                "--rate",
                "20000",
                "--ring-kib",
                "128",
                "--stack-bytes",
                "8192",
                "-o",
                profile.toString(),
                "--",
                CPrograms.clang("spin").toString(),
                "0.3");
        assertEquals(0, r.status(), r.err());
        List<RecordedEvent> drops = named(events(jfr), "ompprof.RecordsDropped");
        long dropped;
        try (Recording rec = Recording.open(profile)) {
            dropped = rec.threads().stream()
                            .mapToLong(t -> t.samplesDropped() + t.eventsDropped())
                            .sum()
                    + rec.stats().noSlotDrops();
            assertEquals(
                    rec.stats().rings().stream()
                                    .mapToLong(s -> s.sampleDropped() + s.eventDropped())
                                    .sum()
                            + rec.stats().noSlotDrops(),
                    dropped);
        }
        assertTrue(dropped > 0, "the worker without a slot should have dropped records: " + r.err());
        assertFalse(drops.isEmpty());
        assertEquals(
                dropped,
                drops.stream()
                        .mapToLong(e -> e.getLong("samples") + e.getLong("events"))
                        .sum());
        for (RecordedEvent e : drops) {
            // a ring's drops are its owner's; a thread without a slot has no number yet
            boolean ringFull = e.getString("cause").equals("ring full");
            assertTrue(ringFull || e.getString("cause").equals("no free slot"), e::toString);
            assertEquals(ringFull, e.getInt("thread") > 0, e::toString);
        }
    }

    @Test
    void viewAndExportRecordTheirOwnWork() throws Exception {
        Path profile = work.resolve("imb.ompprof");
        Ompprof.Result r = Ompprof.run(
                work,
                TWO_THREADS,
                "record",
                "--keep-raw",
                "-o",
                profile.toString(),
                "--",
                CPrograms.clang("imbalance_loop").toString(),
                "0.01",
                "5");
        assertEquals(0, r.status(), r.err());

        Path viewJfr = work.resolve("view.jfr");
        Ompprof.Result v = Ompprof.run(
                work,
                Map.of(),
                "view",
                "--self-profile",
                viewJfr.toString(),
                "--screenshot",
                work.resolve("flat.png").toString(),
                "--view",
                "flat",
                profile.toString());
        assertEquals(0, v.status(), v.err());
        List<String> loads = new ArrayList<>();
        for (RecordedEvent e : named(events(viewJfr), "ompprof.ViewerLoad")) {
            assertTrue(e.getBoolean("succeeded") && !e.getDuration().isNegative(), e::toString);
            loads.add(e.getString("what"));
        }
        assertTrue(loads.contains("reading the profile") && loads.contains("totalling functions"), loads::toString);

        // export of a raw recording builds the profile in memory: the build's events, with no file written
        Path exportJfr = work.resolve("export.jfr");
        Ompprof.Result x = Ompprof.run(
                work,
                Map.of(),
                "export",
                "--format",
                "collapsed",
                "--self-profile",
                exportJfr.toString(),
                "-o",
                work.resolve("out.collapsed").toString(),
                work.resolve("imb.ompprof.raw").toString());
        assertEquals(0, x.status(), x.err());
        List<RecordedEvent> all = events(exportJfr);
        RecordedEvent build = named(all, "ompprof.ProfileBuild").getFirst();
        assertEquals("", build.getString("output"));
        assertTrue(build.getLong("samples") > 0);
        assertEquals(7, named(all, "ompprof.BuildStage").size());
    }

    @Test
    void aSelfProfileThatCannotBeWrittenIsOneLineAndNothingRuns() throws Exception {
        Path marker = work.resolve("ran");
        Ompprof.Result r = Ompprof.run(
                work,
                Map.of(),
                "record",
                "--self-profile",
                "/nonexistent/dir/self.jfr",
                "--",
                "/bin/sh",
                "-c",
                "touch " + marker);
        assertEquals(2, r.status());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(
                r.err()
                        .startsWith("ompprof: record: --self-profile: output directory does not exist: "
                                + "/nonexistent/dir; give a writable FILE.jfr"),
                r.err());
        assertFalse(Files.exists(marker), "the program ran");

        Files.createDirectories(work.resolve("adir"));
        Ompprof.Result e = Ompprof.run(
                work, Map.of(), "export", "--format", "collapsed", "--self-profile", "adir", "whatever.ompprof");
        assertEquals(2, e.status());
        assertEquals(
                "ompprof: export: --self-profile: output is a directory: adir; give a writable FILE.jfr",
                e.err().strip());
        Ompprof.Result m = Ompprof.run(work, Map.of(), "merge", "-o", "m.ompprof", "--self-profile");
        assertEquals(2, m.status());
        assertEquals(1, m.err().lines().count(), m.err());
    }
}
