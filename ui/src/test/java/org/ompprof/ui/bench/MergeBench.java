package org.ompprof.ui.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.ompprof.calltree.merge.ProfileMerge;
import org.ompprof.calltree.profile.ProfileWriter;
import org.ompprof.sampler.recording.HandlerHistogram;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.Stats;

/**
 * Merge throughput: COUNT synthetic profiles (NODES contexts, SAMPLES samples over THREADS
 * threads each, overlapping paths as runs of one program have) merged into one, REPEAT times;
 * prints profiles per second and input MB per second (median, min, max) and the heap after.
 *   usage: MergeBench OUT_DIR [COUNT=16] [NODES=20000] [SAMPLES=200000] [THREADS=8] [REPEAT=3]
 */
public final class MergeBench {
    private MergeBench() {}

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        int count = arg(args, 1, 16),
                nodes = arg(args, 2, 20_000),
                samples = arg(args, 3, 200_000),
                threads = arg(args, 4, 8);
        int repeat = arg(args, 5, 3);
        Files.createDirectories(out);
        List<Path> inputs = new ArrayList<>();
        long bytes = 0;
        for (int i = 0; i < count; i++) {
            Path p = out.resolve("run" + i + ".ompprof");
            // one seed for the shape, so the runs share most paths; another for the samples
            var profile = ProfileBench.syntheticProfile(new Random(1000 + i % 4), nodes, samples, threads);
            bytes += ProfileWriter.write(
                    p,
                    new Metadata(Map.of("command", "./app " + i, "mode", "wall")),
                    List.of(),
                    List.of(),
                    new Stats(HandlerHistogram.empty(), 0, 0, 0, 0, 0, 0, List.of(), List.of(), List.of()),
                    profile);
            inputs.add(p);
        }
        double[] seconds = new double[repeat];
        ProfileMerge.Result r = null;
        for (int k = 0; k < repeat; k++) {
            long t0 = System.nanoTime();
            r = ProfileMerge.merge(inputs, out.resolve("merged.ompprof"));
            seconds[k] = (System.nanoTime() - t0) / 1e9;
        }
        Arrays.sort(seconds);
        double median = seconds[repeat / 2];
        Runtime rt = Runtime.getRuntime();
        System.gc();
        System.out.printf(
                Locale.ROOT,
                "merge of %d profiles (%,d contexts, %,d samples, %d threads each; %.1f MB in all) -> %,d "
                        + "contexts, %,d bytes%n",
                count,
                nodes,
                samples,
                threads,
                bytes / 1e6,
                r.contexts(),
                r.bytes());
        System.out.printf(
                Locale.ROOT,
                "  %.2f s median (min %.2f, max %.2f, %d runs): %.1f profiles/s, %.1f MB/s of input, %,.0f samples/s%n",
                median,
                seconds[0],
                seconds[repeat - 1],
                repeat,
                count / median,
                bytes / 1e6 / median,
                (double) r.samples() / median);
        System.out.printf(
                Locale.ROOT,
                "  heap in use after: %.0f MB (max heap %.0f MB)%n",
                (rt.totalMemory() - rt.freeMemory()) / 1e6,
                rt.maxMemory() / 1e6);
    }

    private static int arg(String[] args, int i, int otherwise) {
        return args.length > i ? Integer.parseInt(args[i]) : otherwise;
    }
}
