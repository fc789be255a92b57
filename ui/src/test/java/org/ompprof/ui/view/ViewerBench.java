package org.ompprof.ui.view;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javafx.application.Platform;
import javafx.stage.Stage;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.ProfileWriter;
import org.ompprof.calltree.views.BottomUp;
import org.ompprof.sampler.recording.HandlerHistogram;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.Stats;
import org.ompprof.ui.bench.ProfileBench;

/**
 * The viewer on a big profile (scripts/bench-viewer runs it in a fresh JVM): 1,000,000 contexts
 * and 10,000,000 timeline samples on 16 threads. Measures the time from start to the first
 * painted frame (load, build the window, first layout and render), then what interaction costs
 * per frame (timeline zoom and pan, flame graph zoom, table scrolling and expanding), the
 * background builds (callers view, flat view) and the heap the viewer keeps.
 *
 * <p>usage: ViewerBench OUTDIR REPEAT [--first-paint] (makes OUTDIR/viewer-1m.ompprof first if missing;
 * --first-paint stops after the first frame, for repeated runs in fresh JVMs)
 */
public final class ViewerBench {
    private ViewerBench() {}

    public static void main(String[] args) throws Exception {
        long start = System.nanoTime();
        Path file = Path.of(args[0]).resolve("viewer-1m.ompprof");
        int repeat = Integer.parseInt(args[1]);
        boolean paintOnly = args.length > 2 && args[2].equals("--first-paint");
        if (!Files.exists(file)) {
            make(file);
            System.out.println("made " + file + "; run again for the measurements in a fresh JVM");
            return;
        }
        System.setProperty("glass.platform", "Headless");
        System.setProperty("prism.order", "sw");
        // the window's own path: tree read while the toolkit starts, views in, timelines after
        ViewOptions o = ViewOptions.parse(List.of(file.toString()));
        CompletableFuture<Void> done = new CompletableFuture<>();
        CompletableFuture<Stage> window = new CompletableFuture<>();
        WindowLoad.start(
                o,
                window,
                v -> Screenshot.afterPulses(1, () -> {
                    long painted = System.nanoTime();
                    print("profile: %,d contexts, %,d bytes", v.state.tree.size(), size(file));
                    print(
                            "first paint with the tree: %,d ms after the JVM started this class (%s)",
                            ms(painted - start),
                            ManagementFactory.getRuntimeMXBean().getUptime() + " ms of JVM uptime");
                    if (paintOnly) done.complete(null);
                    else waitForLanes(v, start, repeat, done);
                }),
                done::completeExceptionally);
        Platform.startup(
                () -> window.complete(ViewCommand.loadingStage(o, new java.util.concurrent.CountDownLatch(1))));
        try {
            done.get(10, TimeUnit.MINUTES);
        } finally {
            Platform.exit();
        }
    }

    private static void waitForLanes(Viewer v, long start, int repeat, CompletableFuture<Void> done) {
        if (v.timeline.pending()) {
            Platform.runLater(() -> waitForLanes(v, start, repeat, done));
            return;
        }
        print("timelines in (read in the background): %,d ms after start", ms(System.nanoTime() - start));
        try {
            interact(v, repeat);
            done.complete(null);
        } catch (RuntimeException e) {
            done.completeExceptionally(e);
        }
    }

    private static void make(Path file) throws Exception {
        Files.createDirectories(file.getParent());
        Profile p = ProfileBench.syntheticProfile(new Random(2026), 1_000_000, 10_000_000, 16);
        ProfileWriter.write(
                file,
                new Metadata(Map.of()),
                List.of(),
                List.of(),
                new Stats(HandlerHistogram.empty(), 0, 0, 0, 0, 0, 0, List.of(), List.of(), List.of()),
                p);
    }

    /** Frame costs, each the median (and max) over {@code repeat} frames, measured on the UI thread. */
    private static void interact(Viewer v, int repeat) {
        v.select(Viewer.View.TIMELINE);
        TimelinePane t = v.timeline;
        print("timeline redraw, whole recording: %s", frames(repeat, () -> t::redraw));
        print("timeline zoom in x1.25 and redraw: %s", frames(repeat, () -> () -> t.zoomBy(1.25)));
        long[] w = t.window();
        long step = (w[1] - w[0]) / 10;
        print(
                "timeline pan by a tenth and redraw: %s",
                frames(repeat, () -> () -> t.window(t.window()[0] + step, t.window()[1] + step)));
        v.select(Viewer.View.FLAME);
        FlameGraphPane f = v.flame;
        print("flame graph redraw, whole tree: %s", frames(repeat, () -> f::redraw));
        CallingContextTree tree = v.state.tree;
        Random r = new Random(1);
        print(
                "flame graph zoom into a context: %s",
                frames(repeat, () -> () -> f.zoom(1 + r.nextInt(tree.size() - 1))));
        v.select(Viewer.View.TOPDOWN);
        print(
                "top-down: expand the hot path: %s",
                frames(repeat, () -> () -> {
                    v.topDown.view().getRoot().getChildren().forEach(c -> c.setExpanded(false));
                    v.topDown.hotPath();
                    v.root().layout();
                }));
        print(
                "top-down: expand a context with all its children: %s",
                frames(repeat, () -> () -> {
                    int n = 1 + r.nextInt(tree.size() - 1);
                    v.topDown.reveal(n);
                    v.root().layout();
                }));
        int rows = v.topDown.view().getExpandedItemCount();
        print(
                "top-down: scroll to a row (%d rows open) and lay out: %s",
                rows, frames(repeat, () -> () -> {
                    v.topDown
                            .view()
                            .scrollTo(r.nextInt(Math.max(1, v.topDown.view().getExpandedItemCount())));
                    v.root().layout();
                }));
        long b0 = System.nanoTime();
        CallingContextTree bu = BottomUp.of(tree);
        print(
                "callers view built (in the background in the window): %,d ms, %,d contexts",
                ms(System.nanoTime() - b0), bu.size());
        long f0 = System.nanoTime();
        v.select(Viewer.View.FLAT);
        print("flat view built: %,d ms", ms(System.nanoTime() - f0));
        for (int i = 0; i < 3; i++) System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        print("heap in use after GC, profile and all views open: %,d MB", heap >> 20);
    }

    private static String frames(int repeat, Supplier<Runnable> action) {
        List<Double> ms = new ArrayList<>();
        for (int i = 0; i < repeat; i++) {
            Runnable a = action.get();
            long t0 = System.nanoTime();
            a.run();
            ms.add((System.nanoTime() - t0) / 1e6);
        }
        ms.sort(null);
        return String.format(
                Locale.ROOT, "median %.1f ms, max %.1f ms (%d frames)", ms.get(ms.size() / 2), ms.getLast(), ms.size());
    }

    private static long ms(long ns) {
        return ns / 1_000_000;
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (java.io.IOException e) {
            return -1;
        }
    }

    private static void print(String format, Object... args) {
        System.out.println(String.format(Locale.ROOT, format, args));
    }
}
