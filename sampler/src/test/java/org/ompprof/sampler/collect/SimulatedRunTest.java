package org.ompprof.sampler.collect;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.sampler.record.Context;
import org.ompprof.sampler.record.ModuleLoad;
import org.ompprof.sampler.record.ModuleSegment;
import org.ompprof.sampler.record.RecordEncoder;
import org.ompprof.sampler.record.SampleRecord;
import org.ompprof.sampler.record.SyncRegion;
import org.ompprof.sampler.record.TestRecords;
import org.ompprof.sampler.record.ThreadBegin;
import org.ompprof.sampler.record.ThreadEnd;
import org.ompprof.sampler.record.WireRecord;
import org.ompprof.sampler.recording.ImageSource;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.ModuleInfo;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.ThreadInfo;
import org.ompprof.sampler.ring.Region;
import org.ompprof.sampler.ring.RegionLayout;
import org.ompprof.sampler.ring.RingWriter;
import org.ompprof.sampler.ring.TestAgent;
import org.ompprof.sampler.wire.Wire;

/**
 * A whole run against a Java stand-in for the agent: threads claim slots, write samples and
 * callback records through small rings (so they wrap and fill), announce modules, end; the
 * drainer runs concurrently; the recording built afterwards must hold everything, in order.
 */
class SimulatedRunTest {
    static final RegionLayout LAYOUT = new RegionLayout(4, 8192, 4096, Wire.MODE_WALL, 1000, 512);

    @TempDir
    Path dir;

    @Test
    @SuppressWarnings("try")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void everythingWrittenEndsUpInTheRecordingInTimeOrder() throws Exception {
        Path userLib = Files.write(dir.resolve("libuser.so"), randomBytes(10_000, 1));
        Path goneLib = Files.write(dir.resolve("libgone.so"), randomBytes(3_000, 2));
        Path heldLib = Files.write(dir.resolve("libheld.so"), randomBytes(5_000, 3));
        List<ModuleLoad> modules = List.of(
                module(1, userLib, Wire.MOD_FD_HELD, -1),
                module(2, Path.of("/usr/bin/env"), 0, -1),
                module(3, goneLib, 0, -1),
                module(4, heldLib, Wire.MOD_FD_HELD, 0));
        try (Region region = Region.inMemory(LAYOUT);
                Spool spool = Spool.create(dir, ".spool-");
                FileChannel held = FileChannel.open(heldLib)) {
            int heldFd = TestAgent.fdOf(heldLib);
            List<ModuleLoad> announced = new ArrayList<>(modules);
            announced.set(3, module(4, heldLib, Wire.MOD_FD_HELD, heldFd));
            Files.delete(goneLib);
            Files.delete(heldLib); // only the fd still reaches it

            RunCollector collector = collector(region, spool);
            Drainer drainer = drainStarted(region, collector);
            TestAgent agent = new TestAgent(region);
            List<Thread> threads = new ArrayList<>();
            int perThread = 3000;
            for (int t = 0; t < 3; t++) {
                int slot = t;
                threads.add(Thread.ofPlatform()
                        .start(() -> agent.runThread(slot, slot + 1, perThread, slot == 0 ? announced : List.of())));
            }
            for (Thread t : threads) t.join();
            drainer.finish();

            for (var s : region.slots()) assertEquals(Wire.SLOT_FREE, s.state(), "ended slots are handed back");
            assertEquals(2, region.modulesCaptured(), "two FD_HELD modules processed");
            assertEquals(3 * perThread, collector.samples());
            assertEquals(0, drainer.malformed());

            Path out = dir.resolve("sim.ompprof");
            RecordingBuilder.write(out, new Metadata(Map.of("k", "v")), collector, drainer, region);
            checkRecording(out, perThread, userLib);
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(
                    List.of("libuser.so", "sim.ompprof"),
                    files.map(p -> p.getFileName().toString()).sorted().toList(),
                    "the spool is gone");
        }
    }

    /** What the recorder collects from the region into the spool, as for a program of this process. */
    private static RunCollector collector(Region region, Spool spool) {
        return new RunCollector(spool, () -> ProcessHandle.current().pid(), region::setModulesCaptured);
    }

    private static Drainer drainStarted(Region region, RunCollector collector) {
        Drainer drainer = new Drainer(region, collector);
        drainer.start();
        return drainer;
    }

    private void checkRecording(Path out, int perThread, Path userLib) throws IOException {
        try (Recording r = Recording.open(out)) {
            assertEquals(List.of(1, 2, 3), r.recordThreads());
            for (ThreadInfo t : r.threads()) {
                assertEquals(perThread, t.samples());
                assertEquals(Map.of(1, (long) perThread / 2, 0x11, (long) perThread / 2), t.samplesByState());
                assertEquals(1000 + t.seq(), t.osTid());
                assertEquals(t.seq() - 1, t.slot());
                assertTrue(t.endNs() > t.beginNs());
            }
            for (int seq = 1; seq <= 3; seq++) {
                List<WireRecord> records = r.records(seq).toList();
                long last = 0;
                for (WireRecord w : records) {
                    assertTrue(w.timeNs() >= last, "time order");
                    last = w.timeNs();
                }
                assertTrue(records.getFirst() instanceof ThreadBegin);
                assertTrue(records.getLast() instanceof ThreadEnd);
                assertEquals(
                        perThread,
                        records.stream().filter(w -> w instanceof SampleRecord).count());
                assertEquals(
                        perThread / 10,
                        records.stream().filter(w -> w instanceof SyncRegion).count());
            }
            Map<Long, ModuleInfo> m = new java.util.HashMap<>();
            for (ModuleInfo i : r.modules()) m.put(i.moduleId(), i);
            assertEquals(ImageSource.EMBEDDED, m.get(1L).image());
            assertArrayEquals(Files.readAllBytes(userLib), r.moduleImage(1).orElseThrow());
            assertEquals(ImageSource.REFERENCE, m.get(2L).image());
            assertEquals(
                    Path.of("/usr/bin/env").toRealPath().toString(), m.get(2L).imagePath());
            assertEquals(ImageSource.MISSING, m.get(3L).image());
            assertEquals(ImageSource.EMBEDDED, m.get(4L).image(), "read through /proc/PID/fd");
            assertArrayEquals(randomBytes(5_000, 3), r.moduleImage(4).orElseThrow());
            assertEquals(
                    List.of(dir.resolve("libgone.so") + ": deleted or changed during the run"),
                    r.stats().modulesNotCaptured());
        }
    }

    /**
     * A thread's repeated samples (the agent's for a thread still blocked in one call) go through the drain and the
     * recording's writing, and read back as the sample before them at their own times; one with no sample before it
     * (as if that one had been left out) is left out itself and counted, not a recording its reader rejects.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void repeatedSamplesReadBackAsTheSampleBeforeThem() throws Exception {
        try (Region region = Region.inMemory(LAYOUT);
                Spool spool = Spool.create(dir, ".spool-")) {
            RunCollector collector = collector(region, spool);
            Drainer drainer = drainStarted(region, collector);
            RingWriter.claim(region, 0, 1, 1001);
            RingWriter samples = RingWriter.sampleRing(region, 0), events = RingWriter.eventRing(region, 0);
            TestAgent.put(events, new ThreadBegin(1, 1, 1001, 2, 0x7000, 0x9000, 0));
            long t = 2;
            SampleRecord whole = TestAgent.sample(1, t++, 1, 7);
            TestAgent.put(samples, TestRecords.repeatOf(whole, t++, 5)); // nothing before it
            int wholes = 40, repeats = 25;
            for (int i = 0; i < wholes; i++) {
                whole = TestAgent.sample(1, t++, 1, i);
                TestAgent.put(samples, whole);
                for (int k = 0; k < repeats; k++) TestAgent.put(samples, TestRecords.repeatOf(whole, t++, 5));
            }
            TestAgent.put(events, new ThreadEnd(1, t));
            TestAgent.end(region, 0);
            drainer.finish();
            assertEquals(1 + wholes * (1 + repeats), collector.samples(), "the drainer counts every sample");

            Path out = dir.resolve("repeats.ompprof");
            RecordingBuilder.write(out, new Metadata(Map.of("k", "v")), collector, drainer, region);
            try (Recording r = Recording.open(out)) {
                assertEquals(1, r.stats().malformed());
                assertTrue(
                        r.stats().malformedExamples().getFirst().contains("a repeated sample with no sample before it"),
                        r.stats().malformedExamples().toString());
                List<SampleRecord> read = r.records(1)
                        .filter(w -> w instanceof SampleRecord)
                        .map(w -> (SampleRecord) w)
                        .toList();
                assertEquals(wholes * (1 + repeats), read.size());
                for (int i = 0; i < read.size(); i++) {
                    SampleRecord s = read.get(i), first = read.get(i - i % (1 + repeats));
                    assertEquals(first.context().rip(), s.context().rip());
                    assertEquals(first.context().stackLength(), s.context().stackLength());
                    assertEquals(i % (1 + repeats) == 0 ? 1_000_000 : 5, s.weightNs());
                }
            }
        }
    }

    /**
     * Records whose framing the drainer accepts but whose contents do not hold together are left out of the recording
     * as it is written, each thread's writer on its own thread, and counted once each; the rest stay whole and in
     * order.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void recordsThatDoNotHoldTogetherAreLeftOutAndCounted() throws Exception {
        int perThread = 3000, paddedEvery = 7, threads = 3;
        try (Region region = Region.inMemory(LAYOUT);
                Spool spool = Spool.create(dir, ".spool-")) {
            RunCollector collector = collector(region, spool);
            Drainer drainer = drainStarted(region, collector);
            TestAgent agent = new TestAgent(region);
            List<Thread> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int slot = t;
                running.add(Thread.ofPlatform()
                        .start(() -> agent.runThread(slot, slot + 1, perThread, List.of(), paddedEvery)));
            }
            for (Thread t : running) t.join();
            drainer.finish();
            assertEquals(0, drainer.malformed(), "the drainer checks framing only");

            Path out = dir.resolve("bad.ompprof");
            RecordingBuilder.write(out, new Metadata(Map.of("k", "v")), collector, drainer, region);
            int syncs = perThread / 10, padded = (syncs + paddedEvery - 1) / paddedEvery;
            try (Recording r = Recording.open(out)) {
                assertEquals(threads * (long) padded, r.stats().malformed());
                assertTrue(
                        r.stats().malformedExamples().getFirst().contains("record left out"),
                        r.stats().malformedExamples().toString());
                for (int seq = 1; seq <= threads; seq++) {
                    List<WireRecord> records = r.records(seq).toList();
                    assertEquals(
                            syncs - padded,
                            records.stream()
                                    .filter(w -> w instanceof SyncRegion)
                                    .count());
                    assertEquals(
                            perThread,
                            records.stream()
                                    .filter(w -> w instanceof SampleRecord)
                                    .count());
                    long last = 0;
                    for (WireRecord w : records) {
                        assertTrue(w.timeNs() >= last, "time order");
                        last = w.timeNs();
                    }
                }
            }
        }
    }

    static ModuleLoad module(long id, Path file, int flags, int fd) {
        long[] st = TestAgent.stat(file);
        return new ModuleLoad(
                0,
                0,
                id,
                0x7f0000000000L + id * 0x100000,
                0,
                st[0],
                st[1],
                st[2],
                st[3],
                flags,
                fd,
                List.of(new ModuleSegment(0, 0x1000, 0, 0x1000, 5)),
                file.toString(),
                "0a0b",
                MemorySegment.ofArray(new byte[0]));
    }

    static byte[] randomBytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    /**
     * Also as the self-profile's JFR events, one a pass that saw new drops: cause "ring full", the owner's thread
     * number, the samples and callback records lost since the pass before (the end-to-end test's tiny ring does not
     * overflow on a loaded machine, where the program's threads get less CPU than the drainer).
     */
    @Test
    void dropsAreChargedToTheThreadThatOwnedTheRing() throws Exception {
        Path jfr = dir.resolve("drops.jfr");
        try (Region region = Region.inMemory(LAYOUT);
                Spool spool = Spool.create(dir, ".spool-");
                jdk.jfr.Recording self = new jdk.jfr.Recording()) {
            self.enable("ompprof.RecordsDropped");
            self.start();
            RunCollector collector = new RunCollector(spool, () -> 1, n -> {});
            Drainer drainer = new Drainer(region, collector);
            MemorySegment s = region.segment();
            long base = LAYOUT.slotOffset(2);
            s.set(ValueLayout.JAVA_INT, base + Wire.SlotHeader.THREAD_SEQ, 7);
            s.set(ValueLayout.JAVA_INT, base + Wire.SlotHeader.STATE, Wire.SLOT_OWNED);
            s.set(ValueLayout.JAVA_LONG, base + Wire.SlotHeader.SAMPLE_PROD + Wire.RingProd.DROPPED, 5);
            s.set(ValueLayout.JAVA_LONG, base + Wire.SlotHeader.EVENT_PROD + Wire.RingProd.DROPPED, 2);
            drainer.drainOnce();
            s.set(ValueLayout.JAVA_LONG, base + Wire.SlotHeader.SAMPLE_PROD + Wire.RingProd.DROPPED, 6);
            drainer.drainOnce();
            ThreadInfo t = collector.threads().getFirst();
            assertEquals(7, t.seq());
            assertEquals(6, t.samplesDropped());
            assertEquals(2, t.eventsDropped());
            assertEquals(8, collector.dropped());
            assertEquals(6, drainer.ringStats().getFirst().sampleDropped());
            assertEquals(2, drainer.ringStats().getFirst().slot());
            drainer.finish();
            self.stop();
            self.dump(jfr);
        }
        List<String> events = jdk.jfr.consumer.RecordingFile.readAllEvents(jfr).stream()
                .map(e -> e.getString("cause") + " thread " + e.getInt("thread") + ": " + e.getLong("samples")
                        + " samples, " + e.getLong("events") + " events")
                .toList();
        assertEquals(
                List.of("ring full thread 7: 5 samples, 2 events", "ring full thread 7: 1 samples, 0 events"), events);
    }

    /** Unused fields keep the record constructors honest. */
    static SampleRecord sample(int seq, long time, int state) {
        return new SampleRecord(
                seq,
                time,
                1_000_000,
                1000 + seq,
                0,
                state,
                Wire.SAMPLE_OMPT_READY,
                0,
                List.of(),
                List.of(),
                new Context(0x401000, 0x7ffc0000, 0, 0, MemorySegment.ofArray(new byte[64])));
    }

    static byte[] encode(WireRecord r) {
        return RecordEncoder.encode(r);
    }
}
