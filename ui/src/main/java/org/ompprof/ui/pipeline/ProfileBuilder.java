package org.ompprof.ui.pipeline;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.eclipse.collections.impl.list.mutable.primitive.IntArrayList;
import org.eclipse.collections.impl.map.mutable.primitive.IntObjectHashMap;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.profile.LineTable;
import org.ompprof.calltree.profile.RegionTable;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.unwinder.image.ModuleImages;
import org.ompprof.unwinder.stitch.PathFrame;
import org.ompprof.unwinder.stitch.StitchedSample;
import org.ompprof.unwinder.stitch.Stitcher;
import org.ompprof.unwinder.symbols.Symbolizer;

/**
 * Wires the stages for one raw recording: stitch every sample into its full user call path,
 * symbolize it, add it to a calling-context tree under its thread and OMPT state, and to its
 * thread's timeline.
 */
public final class ProfileBuilder {
    private final CallingContextTree tree = CallingContextTree.create();
    private final IntObjectHashMap<Timeline.Builder> timelines = new IntObjectHashMap<>();
    private final IntArrayList path = new IntArrayList();
    private final IntArrayList lines = new IntArrayList();
    private final LineTable.Builder lineTimes = new LineTable.Builder();
    private final BlameStage blame = new BlameStage();
    private final RegionStage regions = new RegionStage();
    private long samples;

    private ProfileBuilder() {}

    public static Profile build(Recording recording) {
        ModuleImages images = new ModuleImages();
        try (Symbolizer symbolizer = Symbolizer.create(images)) {
            return build(recording, images, symbolizer);
        }
    }

    /** As {@link #build(Recording)}, with images and a symbolizer (llvm-symbolizer) already started, and their caches. */
    public static Profile build(Recording recording, ModuleImages images, Symbolizer symbolizer) {
        Stitcher stitcher = Stitcher.of(recording, images);
        ProfileBuilder b = new ProfileBuilder();
        FrameNames names = new FrameNames(stitcher, symbolizer, b.tree.frames());
        stitcher.samples().forEach(s -> b.add(names, s));
        BlameStage.Result blame = b.blame.apply(recording, b.tree, stitcher, symbolizer);
        RegionTable regions = b.regions.table(stitcher, names, symbolizer, b.tree);
        return new Profile(b.tree, b.timelines(), stitcher.counters(), blame.totals(), regions, blame.mutexes(), b.lineTimes.build(),
                b.samples);
    }

    private void add(FrameNames names, StitchedSample stitched) {
        path.clear();
        lines.clear();
        for (PathFrame element : stitched.pathRootFirst()) {
            FrameNames.Named named = names.named(element);
            path.addAll(named.ids());
            lines.addAll(named.lines());
        }
        int node = tree.path(path.toArray());
        addLines(node, stitched.weightNs());
        StitchedSample s = WaitStates.corrected(stitched, path.isEmpty() ? null : tree.frames().frame(path.getLast()));
        tree.addSampleAt(node, s.threadSeq(), s.state(), s.weightNs());
        timelines.getIfAbsentPut(s.threadSeq(), () -> new Timeline.Builder(s.threadSeq())).add(s.timeNs(), node, s.state(), s.weightNs());
        blame.sample(s, node);
        regions.sample(s);
        samples++;
    }

    /** The sample's time on each line of its path: the leaf's executing line, each caller's call line. */
    private void addLines(int leaf, long weightNs) {
        int n = leaf;
        for (int i = lines.size() - 1; i >= 0 && n != CallingContextTree.ROOT; i--, n = tree.parent(n)) {
            lineTimes.add(n, lines.get(i), weightNs, i == lines.size() - 1);
        }
    }

    private List<Timeline> timelines() {
        List<Timeline> out = new ArrayList<>();
        for (int thread : timelines.keySet().toSortedArray()) out.add(timelines.get(thread).build());
        return out;
    }
}
