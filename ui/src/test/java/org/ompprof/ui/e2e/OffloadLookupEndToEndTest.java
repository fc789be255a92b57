package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.profile.DeviceTable;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.ProfileReader;
import org.ompprof.sampler.recording.Recording;

/**
 * A realistic offload workload on the host device (offload_lookup.c): a table mapped once in a
 * target data region, then batches of queries, each mapped in, looked up by one kernel and
 * mapped back. The known answer for kernels, regions, bytes each way and launch contexts is
 * worked out in the program's header.
 */
class OffloadLookupEndToEndTest {
    private static final int BATCHES = 6, KEYS = 1 << 18, QUERIES = 1 << 16;

    @TempDir
    static Path work;

    static Path profile;
    static Profile p;
    static String plainOutput, recordedOutput;

    @BeforeAll
    static void record() throws Exception {
        Path program = OffloadEndToEndTest.offloadProgram("offload_lookup");
        Process plain = new ProcessBuilder(program.toString(), Integer.toString(BATCHES))
                .redirectErrorStream(true)
                .start();
        plainOutput = new String(plain.getInputStream().readAllBytes());
        assertTrue(plain.waitFor(60, TimeUnit.SECONDS));
        profile = work.resolve("lookup.ompprof");
        Ompprof.Result r = Ompprof.run(
                work,
                Map.of("OMP_NUM_THREADS", "2"),
                "record",
                "-o",
                profile.toString(),
                "--",
                program.toString(),
                Integer.toString(BATCHES));
        assertEquals(0, r.status(), r.err());
        recordedOutput = r.out();
        try (Recording file = Recording.open(profile)) {
            p = ProfileReader.read(file);
        }
    }

    @Test
    void theProgramComputesTheSameAnswerRecorded() {
        assertTrue(plainOutput.contains("check "), plainOutput);
        assertEquals(plainOutput, recordedOutput);
    }

    /**
     * One kernel per batch; a target region per kernel, plus the target data region's entry and
     * exit; all on device 0 (libomptarget initializes every host device it offers, here four).
     */
    @Test
    void oneKernelPerBatchAndTheDataRegionsEntryAndExit() {
        assertEquals(BATCHES, of(DeviceTable.Kind.KERNEL).size());
        assertEquals(BATCHES + 2, of(DeviceTable.Kind.REGION).size());
        assertTrue(
                p.devices().devices().stream().allMatch(d -> d.type().equals("generic-64bit")),
                p.devices().devices().toString());
        assertTrue(
                p.devices().activities().stream().allMatch(a -> a.device() == 0), "the default device runs everything");
    }

    @Test
    void bytesEachWayAreTheMappedSizes() {
        List<Long> toDevice = new ArrayList<>(
                transfers(2).stream().map(DeviceTable.Activity::bytes).toList());
        List<Long> expectedTo = new ArrayList<>(List.of(8L * KEYS, 4L * KEYS));
        expectedTo.addAll(Collections.nCopies(BATCHES, 8L * QUERIES));
        Collections.sort(toDevice);
        Collections.sort(expectedTo);
        assertEquals(expectedTo, toDevice);
        assertEquals(
                Collections.nCopies(BATCHES, 4L * QUERIES),
                transfers(3).stream().map(DeviceTable.Activity::bytes).toList());
    }

    /**
     * The table moves where serve() opened the data region; queries, answers and kernels where lookup_batch() launched
     * them.
     */
    @Test
    void eachActivityIsChargedToTheCodeThatLaunchedIt() {
        for (DeviceTable.Activity k : of(DeviceTable.Kind.KERNEL))
            assertEquals(List.of("main", "serve", "lookup_batch"), path(k), k.toString());
        for (DeviceTable.Activity t : of(DeviceTable.Kind.TRANSFER)) {
            boolean table = t.bytes() >= 4L * KEYS;
            assertEquals(
                    table ? List.of("main", "serve") : List.of("main", "serve", "lookup_batch"), path(t), t.toString());
        }
    }

    @Test
    void infoAndReportShowTheDeviceTotals() throws Exception {
        String expected = "0 generic-64bit " + (BATCHES + 2) + " " + BATCHES;
        for (String command : List.of("info", "report")) {
            Ompprof.Result r = Ompprof.run(work, Map.of(), command, profile.toString());
            assertEquals(0, r.status(), r.err());
            String row = r.out()
                    .lines()
                    .map(l -> l.trim().replaceAll("\\s+", " "))
                    .filter(l -> l.startsWith("0 generic-64bit"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(command + ":\n" + r.out()));
            assertTrue(row.startsWith(expected), row);
            assertTrue(row.contains((BATCHES + 2) + " (6.0 MiB)") && row.contains(BATCHES + " (1.5 MiB)"), row);
        }
    }

    private static List<String> path(DeviceTable.Activity a) {
        CallingContextTree tree = p.tree();
        List<String> names = new ArrayList<>();
        for (int frame : tree.framePath(a.launchNode()))
            names.add(tree.frames().frame(frame).name());
        return names;
    }

    private static List<DeviceTable.Activity> transfers(int direction) {
        return of(DeviceTable.Kind.TRANSFER).stream()
                .filter(t -> t.detail() == direction)
                .toList();
    }

    private static List<DeviceTable.Activity> of(DeviceTable.Kind kind) {
        return p.devices().activities().stream().filter(a -> a.kind() == kind).toList();
    }
}
