package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.calltree.profile.DeviceTable;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.ProfileReader;
import org.ompprof.sampler.recording.ImageSource;
import org.ompprof.sampler.recording.ModuleInfo;
import org.ompprof.sampler.recording.Recording;

/**
 * A program offloaded to the host device (clang-19 -fopenmp-targets=x86_64-pc-linux-gnu) through
 * the whole product: every kernel lies inside its target region on the merged timeline, the
 * bytes transferred are the mapped sizes, device time is charged to the call path that
 * launched it, and the offload image (a temporary file libomptarget deletes) is symbolized.
 */
class OffloadEndToEndTest {
    private static final int REPS = 4;
    private static final long IN_BYTES = 8L << 20, OUT_BYTES = 4L * (3 << 18);

    @TempDir
    static Path work;

    static Path profile;
    static Profile p;

    @BeforeAll
    static void record() throws Exception {
        Path program = offloadProgram("offload");
        profile = work.resolve("offload.ompprof");
        Ompprof.Result r = Ompprof.run(
                work,
                Map.of("OMP_NUM_THREADS", "2"),
                "record",
                "--keep-raw",
                "-o",
                profile.toString(),
                "--",
                program.toString(),
                Integer.toString(REPS));
        assertEquals(0, r.status(), r.err());
        try (Recording file = Recording.open(profile)) {
            p = ProfileReader.read(file);
        }
    }

    /**
     * The program, built and run once without ompprof. Skips only where clang-19 cannot build for
     * an offload target at all (clang-offload-packager-19, from clang-tools-19, is missing; `make
     * test` installs it and fails any run that skipped a test); a build that fails with the
     * toolchain present fails the class.
     */
    static Path offloadProgram(String name) throws Exception {
        assumeTrue(
                CPrograms.onPath("clang-offload-packager-19"),
                "clang-tools-19 is not installed: clang-19 cannot build offload programs");
        Path program = CPrograms.offload(name);
        Process run = new ProcessBuilder(program.toString(), "1")
                .redirectErrorStream(true)
                .start();
        String out = new String(run.getInputStream().readAllBytes());
        assertTrue(run.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, run.exitValue(), out);
        assertFalse(out.contains(" 0 devices"), "libomptarget offers no device, not even the host: " + out);
        return program;
    }

    @Test
    void everyKernelLiesInsideItsTargetRegion() {
        List<DeviceTable.Activity> regions = of(DeviceTable.Kind.REGION), kernels = of(DeviceTable.Kind.KERNEL);
        assertEquals(REPS, regions.size(), p.devices().toString());
        assertEquals(REPS, kernels.size());
        for (DeviceTable.Activity k : kernels) {
            DeviceTable.Activity region = regions.stream()
                    .filter(r -> r.targetId() == k.targetId())
                    .findFirst()
                    .orElseThrow();
            assertTrue(region.startNs() <= k.startNs() && k.endNs() <= region.endNs(), k + " outside " + region);
            assertTrue(k.durationNs() > 0);
        }
        List<DeviceTable.Activity> all = p.devices().activities();
        for (int i = 1; i < all.size(); i++)
            assertTrue(all.get(i - 1).startNs() <= all.get(i).startNs(), "timeline out of order");
    }

    @Test
    void transferBytesAreTheMappedSizes() {
        List<DeviceTable.Activity> transfers = of(DeviceTable.Kind.TRANSFER);
        List<Long> toDevice = transfers.stream()
                .filter(t -> t.detail() == 2)
                .map(DeviceTable.Activity::bytes)
                .toList();
        List<Long> fromDevice = transfers.stream()
                .filter(t -> t.detail() == 3)
                .map(DeviceTable.Activity::bytes)
                .toList();
        assertEquals(java.util.Collections.nCopies(REPS, IN_BYTES), toDevice);
        assertEquals(java.util.Collections.nCopies(REPS, OUT_BYTES), fromDevice);
        assertEquals(2 * REPS, transfers.size());
    }

    @Test
    void deviceTimeIsChargedToTheLaunchingPath() throws Exception {
        for (String metric : List.of("device_kernel", "device_transfer")) {
            Ompprof.Result r = Ompprof.read("export", "--format", "collapsed", "--metric", metric, profile.toString());
            assertEquals(0, r.status(), r.err());
            List<String> lines = r.out().lines().toList();
            assertEquals(1, lines.size(), r.out());
            String line = lines.getFirst();
            assertEquals("main;launch_kernels", line.substring(0, line.lastIndexOf(' ')));
            DeviceTable.Kind kind =
                    metric.equals("device_kernel") ? DeviceTable.Kind.KERNEL : DeviceTable.Kind.TRANSFER;
            long expected = of(kind).stream()
                    .mapToLong(DeviceTable.Activity::durationNs)
                    .sum();
            assertEquals(expected, Long.parseLong(line.substring(line.lastIndexOf(' ') + 1)));
        }
    }

    /**
     * libomptarget writes the offload image to a temporary file and loads it from there; the
     * recording keeps that image, so with the file gone (deleted by libomptarget's later
     * versions at exit, or by a /tmp cleaner) the kernel's frames are still named.
     */
    @Test
    void theOffloadImageInATemporaryFileIsCapturedAndSymbolized() throws Exception {
        Recorded raw = Recorded.read(profile);
        // libomptarget's temporary files (/tmp/tmpfile_XXXXXX); the checkout itself may be under /tmp too
        List<ModuleInfo> images = raw.recording().modules().stream()
                .filter(m -> m.path().startsWith("/tmp/tmpfile_"))
                .toList();
        assertEquals(
                1,
                images.size(),
                "offload images: " + images.stream().map(ModuleInfo::path).toList());
        assertEquals(ImageSource.EMBEDDED, images.getFirst().image());
        raw.recording().close();
        Files.deleteIfExists(Path.of(images.getFirst().path()));
        Path rawFile = profile.resolveSibling(profile.getFileName() + ".raw");
        Ompprof.Result r = Ompprof.read("export", "--format", "collapsed", rawFile.toString());
        assertEquals(0, r.status(), r.err());
        // the kernel's outlined body (__omp_offloading_..._launch_kernels_l15_debug__.omp_outlined), named from the
        // image's
        // debug info as its construct and the line of its pragma
        assertTrue(
                r.out()
                        .lines()
                        .anyMatch(l -> l.startsWith("main;launch_kernels;")
                                && l.contains(";target at offload.c:15;parallel at offload.c:15")),
                r.out());
    }

    /** Targets launched by the two threads of a parallel region: charged to each thread under the region's opener. */
    @Test
    void targetsLaunchedInAParallelRegionAreStitchedUnderIt() throws Exception {
        Path parallel = work.resolve("parallel.ompprof");
        Ompprof.Result r = Ompprof.run(
                work,
                Map.of(),
                "record",
                "-o",
                parallel.toString(),
                "--",
                CPrograms.offload("offload_parallel").toString(),
                "2");
        assertEquals(0, r.status(), r.err());
        Profile q;
        try (Recording file = Recording.open(parallel)) {
            q = ProfileReader.read(file);
        }
        List<DeviceTable.Activity> kernels = q.devices().activities().stream()
                .filter(a -> a.kind() == DeviceTable.Kind.KERNEL)
                .toList();
        assertEquals(4, kernels.size());
        assertEquals(
                List.of(1, 2),
                kernels.stream()
                        .map(DeviceTable.Activity::thread)
                        .distinct()
                        .sorted()
                        .toList(),
                "each thread launched its own kernels");
        for (int thread = 1; thread <= 2; thread++) {
            Ompprof.Result c = Ompprof.read(
                    "export",
                    "--format",
                    "collapsed",
                    "--metric",
                    "device_kernel",
                    "--thread",
                    Integer.toString(thread),
                    parallel.toString());
            assertEquals(0, c.status(), c.err());
            List<String> lines = c.out().lines().toList();
            assertEquals(1, lines.size(), c.out());
            List<String> path = List.of(lines.getFirst()
                    .substring(0, lines.getFirst().lastIndexOf(' '))
                    .split(";"));
            assertEquals(List.of("main", "launch_parallel"), path.subList(0, 2), c.out());
            assertEquals("kernel_from", path.getLast(), c.out());
            assertTrue(path.stream().noneMatch(f -> f.startsWith("__kmpc") || f.startsWith("__tgt")), c.out());
        }
    }

    @Test
    void infoShowsTheDeviceTotals() throws Exception {
        Ompprof.Result r = Ompprof.read("info", profile.toString());
        assertEquals(0, r.status(), r.err());
        String row = r.out()
                .lines()
                .filter(l -> l.trim().startsWith("0 generic-64bit"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(r.out()));
        List<String> cells = List.of(row.trim().split("\\s+"));
        assertEquals(
                List.of("0", "generic-64bit", Integer.toString(REPS), Integer.toString(REPS)),
                cells.subList(0, 4),
                row);
        assertTrue(row.contains(REPS + " (32.0 MiB)") && row.contains(REPS + " (12.0 MiB)"), row);
    }

    /**
     * Merging the run with itself keeps both runs' device activities, on devices of their own
     * (the second run's device d is d plus the first's device count), each still charged to
     * main;launch_kernels on its run's thread.
     */
    @Test
    void mergeKeepsEveryRunsDevicesApart() throws Exception {
        Path merged = work.resolve("twice.ompprof");
        Ompprof.Result r =
                Ompprof.run(work, Map.of(), "merge", "-o", merged.toString(), profile.toString(), profile.toString());
        assertEquals(0, r.status(), r.err());
        Profile m;
        try (Recording rec = Recording.open(merged)) {
            m = ProfileReader.read(rec);
        }
        int span = p.devices().span();
        assertEquals(
                2 * p.devices().activities().size(), m.devices().activities().size());
        assertEquals(2 * p.devices().devices().size(), m.devices().devices().size());
        for (DeviceTable.Activity k : of(DeviceTable.Kind.KERNEL)) {
            for (int offset : new int[] {0, span}) {
                assertTrue(
                        m.devices().activities().stream()
                                .anyMatch(a -> a.kind() == DeviceTable.Kind.KERNEL
                                        && a.device() == k.device() + offset
                                        && a.startNs() == k.startNs()
                                        && m.tree().framePath(a.launchNode()).length
                                                == p.tree().framePath(k.launchNode()).length),
                        "kernel " + k + " on device " + (k.device() + offset));
            }
        }
        Ompprof.Result info = Ompprof.read("info", merged.toString());
        assertTrue(info.out().lines().anyMatch(l -> l.trim().startsWith(span + " generic-64bit")), info.out());
    }

    /**
     * Started through a script, the launcher cannot see which libomp the program runs on, so it
     * cannot give libomptarget its libomp.so: no device connects, and info says why and what to do.
     */
    @Test
    void infoSaysWhyNoDeviceConnectedForAProgramStartedByAScript() throws Exception {
        Path script = Files.writeString(
                work.resolve("run-offload.sh"), "#!/bin/sh\nexec " + offloadProgram("offload") + " 1\n");
        assertTrue(script.toFile().setExecutable(true));
        Path viaScript = work.resolve("script.ompprof");
        Ompprof.Result r = Ompprof.run(work, Map.of(), "record", "-o", viaScript.toString(), "--", script.toString());
        assertEquals(0, r.status(), r.err());
        Ompprof.Result info = Ompprof.read("info", viaScript.toString());
        assertTrue(
                info.out().contains("the program loaded libomptarget, but no device connected to OMPT")
                        && info.out().contains("LD_LIBRARY_PATH"),
                info.out());
        Ompprof.Result direct = Ompprof.read("info", profile.toString());
        assertFalse(direct.out().contains("no device connected"), direct.out());
    }

    private static List<DeviceTable.Activity> of(DeviceTable.Kind kind) {
        return p.devices().activities().stream().filter(a -> a.kind() == kind).toList();
    }
}
