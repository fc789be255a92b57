package org.ompprof.calltree.build;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import org.eclipse.collections.impl.list.mutable.primitive.IntArrayList;
import org.eclipse.collections.impl.map.mutable.primitive.IntObjectHashMap;
import org.ompprof.blame.WindowedBlame;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.StandardMetrics;
import org.ompprof.calltree.profile.DeviceTable;
import org.ompprof.calltree.profile.LineTable;
import org.ompprof.calltree.profile.MpiCallTable;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.ProfileWriter;
import org.ompprof.calltree.profile.RegionTable;
import org.ompprof.calltree.profile.RunTables;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.calltree.profile.TimelineStream;
import org.ompprof.sampler.mpi.MpiIntervals;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.RecordingWriter;
import org.ompprof.sampler.wire.Wire;
import org.ompprof.unwinder.clock.Stage;
import org.ompprof.unwinder.clock.StageClock;
import org.ompprof.unwinder.image.ModuleImages;
import org.ompprof.unwinder.stitch.PathFrame;
import org.ompprof.unwinder.stitch.StitchedSample;
import org.ompprof.unwinder.stitch.Stitcher;
import org.ompprof.unwinder.symbols.Symbolizer;

/**
 * Wires the stages for one raw recording: stitch every sample into its full user call path,
 * symbolize it, add it to a calling-context tree under its thread and OMPT state, and to its
 * thread's timeline. Samples come in time order, all threads merged, so that blame needs only
 * a window of them and the timelines can be written as they grow: what is held is the tree and
 * the per-region and per-line sums, not the run.
 */
public final class ProfileBuilder {
    private final CallingContextTree tree = CallingContextTree.create();
    private final TimelineStream timelines;
    private final IntArrayList path = new IntArrayList();
    private int[] pathIds = new int[64]; // the path's ids for the tree, reused: no array a sample
    private final IntArrayList lines = new IntArrayList();
    /**
     * Per thread, its last sample's path as placed: a thread's samples at one barrier or idle share their path list
     * (see the stitcher), placed once for the run of them.
     */
    private final IntObjectHashMap<Placed> lastPlaced = new IntObjectHashMap<>();

    private final LineTable.Builder lineTimes = new LineTable.Builder();
    private BlameStage blame;
    private final MpiIntervals mpi;
    private final StageClock clock;
    private RegionStage regions;
    private long samples;

    private ProfileBuilder(Recording recording, TimelineStream timelines, StageClock clock) {
        this.timelines = timelines;
        this.clock = clock;
        this.mpi = MpiIntervals.of(recording.records(type -> type == Wire.REC_MPI));
        if (!mpi.isEmpty()) StandardMetrics.registerMpiInto(tree.metrics()); // all calls' metrics, sampled or not
    }

    /**
     * The profile with its timelines in memory. With JFR recording (ompprof's {@code
     * --self-profile}), the build is timed and its {@code ompprof.ProfileBuild} and {@code
     * ompprof.BuildStage} events committed.
     */
    public static Profile build(Recording recording) {
        return build(recording, BuildThreads.fromProperty());
    }

    /** As {@link #build(Recording)}, on {@code threads} threads (the profile is the same for any count). */
    public static Profile build(Recording recording, int threads) {
        BuildCost cost = BuildCost.startIfRecorded(recording.path());
        ModuleImages images = new ModuleImages();
        Profile profile;
        try (BuildThreads pool = BuildThreads.start(threads);
                SymbolizerAhead symbolizer = SymbolizerAhead.start(images, pool.aside(), cost.clock())) {
            profile = build(recording, images, symbolizer, TimelineStream.inMemory(), cost.clock(), pool);
            cost.clock().enter(Stage.SYMBOLIZE); // stopping it
        }
        cost.finish(null, profile, 0);
        return profile;
    }

    /**
     * As {@link #build(Recording)}, with images and a symbolizer (llvm-symbolizer) already started
     * and their caches; the timelines go to {@code timelines} (the profile holds those kept in memory).
     */
    public static Profile build(
            Recording recording, ModuleImages images, Symbolizer symbolizer, TimelineStream timelines) {
        try (BuildThreads none = BuildThreads.none()) {
            return build(recording, images, SymbolizerAhead.of(symbolizer), timelines, StageClock.off(), none);
        }
    }

    /**
     * As {@link #build(Recording, ModuleImages, Symbolizer, TimelineStream)}, accounting its time to
     * {@code clock}'s stages (what no other stage claims, the tree, timelines, per-region, per-line
     * and device tables, is the aggregate stage's), on {@code threads}. The symbolizer is taken once
     * the recording is indexed, and the region table worked out while blame is charged.
     */
    private static Profile build(
            Recording recording,
            ModuleImages images,
            SymbolizerAhead symbolizerAhead,
            TimelineStream timelines,
            StageClock clock,
            BuildThreads threads) {
        Stage was = clock.enter(Stage.AGGREGATE);
        try {
            Stitcher stitcher = Stitcher.of(recording, images, clock, threads.readAhead(), symbolizerAhead::loadAhead);
            Symbolizer symbolizer = symbolizerAhead.get(clock);
            ProfileBuilder b = new ProfileBuilder(recording, timelines.timed(clock), clock);
            FrameNames names = new FrameNames(stitcher, symbolizer, b.tree.frames(), clock);
            b.regions = new RegionStage(stitcher, names, symbolizer, b.tree);
            b.blame = new BlameStage(
                    recording,
                    new ReleaseSiteNodes(stitcher, names, b.tree),
                    WindowedBlame.DEFAULT_WINDOW_NS,
                    clock,
                    threads.blaming());
            samples(stitcher, symbolizer, clock, threads).forEachRemaining(s -> b.add(names, s));
            b.blame.end(); // blame charges its last windows on its thread
            b.regions.placeRecorded(); // names what no sample did: here, before names are used on other threads
            // the region table reads the index and the region sums, neither of which blame, devices or names change;
            // the timelines are complete, and only their stream writes to the file until the tables
            Later<RegionTable> regionTable = Later.start(threads.aside(), b.regions::table);
            Later<List<Timeline>> timelineTable = Later.start(threads.aside(), timelines::finish);
            BlameStage.Result blame = b.blame.apply(recording, b.tree, stitcher, symbolizer);
            DeviceTable devices = DeviceStage.apply(recording, b.tree, stitcher, names);
            names.finish();
            RegionTable regions = regionTable.get();
            return new Profile(
                    b.tree,
                    timelineTable.get(),
                    stitcher.counters(),
                    blame.totals(),
                    regions,
                    blame.mutexes(),
                    b.lineTimes.build(),
                    b.samples,
                    devices,
                    MpiCallTable.of(recording.records(type -> type == Wire.REC_MPI), (int)
                            recording.metadata().getLong(Metadata.MPI_RANK, -1)));
        } finally {
            clock.enter(was);
        }
    }

    /**
     * Builds the profile of a raw recording straight into {@code output}: the timelines are
     * written as they grow (see {@link TimelineStream}), downsampled to one entry per thread per
     * {@code timelineResolutionNs} unless that is 0, the tables at the end. Returns the size of
     * the file written.
     */
    public static long buildInto(Path output, Recording raw, long timelineResolutionNs) throws IOException {
        return buildInto(output, raw, timelineResolutionNs, BuildThreads.fromProperty());
    }

    /**
     * As {@link #buildInto(Path, Recording, long)}, on {@code threads} threads: the file is the same
     * for any count but for the build's own cost in its metadata.
     */
    public static long buildInto(Path output, Recording raw, long timelineResolutionNs, int threads)
            throws IOException {
        BuildCost cost = BuildCost.start(raw.path());
        StageClock clock = cost.clock();
        ModuleImages images = new ModuleImages();
        Profile profile;
        long bytes;
        clock.enter(Stage.WRITE);
        try (RecordingWriter w = RecordingWriter.create(output);
                BuildThreads pool = BuildThreads.start(threads);
                SymbolizerAhead symbolizer = SymbolizerAhead.start(images, pool.aside(), clock)) {
            TimelineStream timelines = TimelineStream.to(w, TimelineStream.DEFAULT_BUDGET)
                    .downsampled(timelineResolutionNs)
                    .encodedOn(pool.encoding());
            profile = ProfileBuilder.build(raw, images, symbolizer, timelines, clock, pool);
            Metadata metadata = timelineResolutionNs == 0
                    ? raw.metadata()
                    : raw.metadata().with(Metadata.TIMELINE_RESOLUTION_NS, Long.toString(timelineResolutionNs));
            clock.enter(Stage.WRITE);
            ProfileWriter.tablesButMetadata(
                    w, new RunTables(metadata, raw.threads(), raw.modules(), raw.stats()), profile);
            long before = w.position();
            clock.count(Stage.WRITE, before);
            w.metadata(
                    cost.withCost(metadata)); // last: the build's cost is known only now (sections are found by kind)
            bytes = w.commit();
            clock.count(Stage.WRITE, bytes - before);
            clock.enter(Stage.SYMBOLIZE); // llvm-symbolizer stops first as the build's resources close
        }
        cost.finish(output, profile, bytes);
        return bytes;
    }

    /** The samples in time order, stitched on this thread or, with more threads, ahead on another. */
    private static Iterator<StitchedSample> samples(
            Stitcher stitcher, Symbolizer symbolizer, StageClock clock, BuildThreads threads) {
        if (threads.stitching() == null) return stitcher.samplesInTimeOrder();
        NamesAhead names = new NamesAhead(stitcher, symbolizer);
        return SamplesAhead.start(threads.stitching(), stitcher.samplesInTimeOrder(), names::ask, clock);
    }

    private void add(FrameNames names, StitchedSample stitched) {
        Placed placed = lastPlaced.get(stitched.threadSeq());
        if (placed == null || placed.path() != stitched.pathRootFirst()) {
            placed = place(names, stitched.pathRootFirst());
            lastPlaced.put(stitched.threadSeq(), placed);
        }
        addLines(placed, stitched.weightNs());
        int node = placed.node();
        StitchedSample s = WaitStates.corrected(stitched, placed.leaf(), mpi);
        tree.addSampleAt(node, s.threadSeq(), s.state(), s.weightNs());
        timelines.add(s.threadSeq(), s.timeNs(), node, s.state(), s.weightNs());
        blame.sample(s, node);
        regions.sample(s, node);
        samples++;
        clock.count(Stage.AGGREGATE, 1);
    }

    /**
     * A stitched path as the tree holds it: its node, its frames' lines, outermost first, and its leaf frame (null for
     * an empty path).
     */
    private record Placed(List<PathFrame> path, int node, int[] lines, Frame leaf) {}

    private Placed place(FrameNames names, List<PathFrame> rootFirst) {
        path.clear();
        lines.clear();
        names.append(rootFirst, path, lines);
        if (pathIds.length < path.size()) pathIds = new int[2 * path.size()];
        int node = tree.path(path.toArray(pathIds), path.size());
        return new Placed(
                rootFirst,
                node,
                lines.toArray(),
                path.isEmpty() ? null : tree.frames().frame(path.getLast()));
    }

    /**
     * The sample's time on each line of its path: the leaf's executing line, each caller's call line; and each
     * context's time by the line it was called from.
     */
    private void addLines(Placed placed, long weightNs) {
        int[] at = placed.lines();
        int n = placed.node();
        for (int i = at.length - 1; i >= 0 && n != CallingContextTree.ROOT; i--, n = tree.parent(n)) {
            lineTimes.add(n, at[i], weightNs, i == at.length - 1);
            if (i > 0) lineTimes.call(n, at[i - 1], weightNs);
        }
    }
}
