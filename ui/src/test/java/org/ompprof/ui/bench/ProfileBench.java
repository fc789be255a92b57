package org.ompprof.ui.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.build.ProfileBuilder;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.ProfileReader;
import org.ompprof.calltree.profile.ProfileWriter;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.calltree.profile.TimelineStream;
import org.ompprof.sampler.recording.HandlerHistogram;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.Stats;
import org.ompprof.unwinder.image.ModuleImages;
import org.ompprof.unwinder.stitch.StitchCounters;
import org.ompprof.unwinder.symbols.Symbolizer;

/**
 * The profile stage's speed and size goals, measured in one run (scripts/bench-profile runs it):
 * <ol>
 * <li>unwinding, stitching, symbolizing and tree insertion of real raw recordings, in samples per
 *   second on one thread (goal: at least 200,000);
 * <li>loading a profile of a 1,000,000-node tree with its timelines (goal: under 1 s);
 * <li>bytes per sample in the profile file (goal: under 16 on average).
 * </ol>
 * Each timing is repeated; the median and the spread are printed.
 *
 * <p>usage: ProfileBench REPEAT OUTDIR RAW...
 */
public final class ProfileBench {
    private ProfileBench() {}

    public static void main(String[] args) throws Exception {
        int repeat = Integer.parseInt(args[0]);
        Path out = Path.of(args[1]);
        for (int i = 2; i < args.length; i++) rawRecording(Path.of(args[i]), repeat, out);
        if (Boolean.parseBoolean(System.getProperty("bench.synthetic", "true"))) millionNodes(repeat, out);
    }

    private static void rawRecording(Path raw, int repeat, Path out) throws Exception {
        ModuleImages images = new ModuleImages();
        try (Recording r = Recording.open(raw);
                Symbolizer symbolizer = Symbolizer.create(images)) {
            long t0 = System.nanoTime();
            Profile first = ProfileBuilder.build(
                    r,
                    images,
                    symbolizer,
                    TimelineStream.inMemory()); // also loads the images and starts llvm-symbolizer
            long cold = System.nanoTime() - t0;
            long[] ns = new long[repeat], cpu = new long[repeat];
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            for (int i = 0; i < repeat; i++) {
                long c0 = threads.getCurrentThreadCpuTime();
                t0 = System.nanoTime();
                ProfileBuilder.build(r, images, symbolizer, TimelineStream.inMemory());
                ns[i] = System.nanoTime() - t0;
                cpu[i] = threads.getCurrentThreadCpuTime() - c0;
            }
            Path profile = out.resolve(raw.getFileName().toString().replace(".raw", ""));
            long bytes = ProfileWriter.write(profile, r, first);
            long samples = first.samples();
            print(
                    "%s: %,d samples, %,d contexts; raw recording %,d bytes (%.0f per sample)",
                    raw.getFileName(),
                    samples,
                    first.tree().size() - 1,
                    Files.size(raw),
                    (double) Files.size(raw) / samples);
            print("  first build, loading images and starting llvm-symbolizer: %,d ms", cold / 1_000_000);
            // CPU time is what one core spends; wall time on a shared VM also counts time stolen by other guests
            print(
                    "  then decode + unwind + stitch + name + insert, one thread, per CPU second: %s samples/s",
                    rates(samples, cpu));
            print("  (per wall second: %s)", rates(samples, ns));
            print("  profile file: %,d bytes, %.2f bytes per sample", bytes, (double) bytes / samples);
        }
    }

    private static void millionNodes(int repeat, Path out) throws Exception {
        Profile p = syntheticProfile(new Random(2026), 1_000_000, 2_000_000, 16);
        Path file = out.resolve("million.ompprof");
        long bytes = ProfileWriter.write(
                file,
                new Metadata(Map.of()),
                List.of(),
                List.of(),
                new Stats(HandlerHistogram.empty(), 0, 0, 0, 0, 0, 0, List.of(), List.of(), List.of()),
                p);
        long[] ns = new long[repeat + 1];
        Profile back = null;
        for (int i = 0; i <= repeat; i++) {
            long t0 = System.nanoTime();
            try (Recording r = Recording.open(file)) {
                back = ProfileReader.read(r);
            }
            ns[i] = System.nanoTime() - t0;
        }
        if (back.tree().size() != p.tree().size() || back.samples() != p.samples())
            throw new AssertionError("profile did not round-trip");
        long first = ns[0];
        long[] warm = Arrays.copyOfRange(ns, 1, ns.length);
        print(
                "synthetic profile: %,d nodes, %,d samples on %d threads, %,d bytes (%.2f bytes per sample)",
                p.tree().size(), p.samples(), p.timelines().size(), bytes, (double) bytes / p.samples());
        print(
                "  load (open, check, decode tree and timelines): first %,d ms in a fresh JVM; then %s",
                first / 1_000_000, millis(warm));
    }

    /**
     * A random recursive tree of {@code nodes} nodes (parents uniform, so depths like real
     * profiles'), and samples mostly on a few hot paths in runs per thread, as a timeline holds them.
     */
    public static Profile syntheticProfile(Random random, int nodes, int samples, int threads) {
        CallingContextTree tree = CallingContextTree.create();
        int frames = 50_000;
        for (int f = 0; f < frames; f++)
            tree.frames()
                    .intern(Frame.of(
                            FrameKind.USER, "/opt/app/bin/app", "function_" + f, "src/app" + f % 97 + ".c", 0));
        while (tree.size() < nodes) tree.child(random.nextInt(tree.size()), random.nextInt(frames));
        List<Timeline.Builder> lines = new ArrayList<>();
        for (int t = 0; t < threads; t++) lines.add(new Timeline.Builder(t));
        long[] time = new long[threads];
        int[] node = new int[threads];
        for (int s = 0; s < samples; s++) {
            int t = (s / 64) % threads;
            if (s < nodes - 1) node[t] = s + 1; // every node holds a sample
            else if (node[t] == 0 || random.nextInt(8) == 0)
                node[t] = 1 + (int) ((nodes - 1) * Math.pow(random.nextDouble(), 3));
            time[t] += 1_000_000 + random.nextInt(2000);
            int state = random.nextInt(10) == 0 ? 0x12 : 0x1;
            tree.addSampleAt(node[t], t, state, 1_000_000);
            lines.get(t).add(time[t], node[t], state, 1_000_000);
        }
        return new Profile(
                tree,
                lines.stream().map(Timeline.Builder::build).toList(),
                StitchCounters.fromMap(Map.of()),
                Map.of(),
                new org.ompprof.calltree.profile.RegionTable(List.of()),
                new org.ompprof.calltree.profile.MutexTable(List.of()),
                org.ompprof.calltree.profile.LineTable.EMPTY,
                samples);
    }

    private static String rates(long samples, long[] ns) {
        double[] r =
                Arrays.stream(ns).mapToDouble(n -> samples / (n / 1e9)).sorted().toArray();
        return String.format(
                Locale.ROOT,
                "median %,.0f (min %,.0f, max %,.0f, %d runs)",
                median(r),
                r[0],
                r[r.length - 1],
                r.length);
    }

    private static String millis(long[] ns) {
        double[] ms = Arrays.stream(ns).mapToDouble(n -> n / 1e6).sorted().toArray();
        return String.format(
                Locale.ROOT,
                "median %,.0f ms (min %,.0f, max %,.0f, %d runs)",
                median(ms),
                ms[0],
                ms[ms.length - 1],
                ms.length);
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static void print(String format, Object... args) {
        System.out.println(String.format(Locale.ROOT, format, args));
    }
}
