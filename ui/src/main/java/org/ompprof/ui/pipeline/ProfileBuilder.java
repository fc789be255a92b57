package org.ompprof.ui.pipeline;

import org.eclipse.collections.impl.list.mutable.primitive.IntArrayList;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.unwinder.image.ModuleImages;
import org.ompprof.unwinder.stitch.PathFrame;
import org.ompprof.unwinder.stitch.StitchedSample;
import org.ompprof.unwinder.stitch.Stitcher;
import org.ompprof.unwinder.symbols.Symbolizer;

/**
 * Wires the stages for one recording: stitch every sample into its full user call path,
 * symbolize it, and add it to a calling-context tree under its thread and OMPT state.
 */
public final class ProfileBuilder {
    private ProfileBuilder() {}

    public static Profile build(Recording recording) {
        ModuleImages images = new ModuleImages();
        Stitcher stitcher = Stitcher.of(recording, images);
        CallingContextTree tree = CallingContextTree.create();
        try (Symbolizer symbolizer = Symbolizer.create(images)) {
            FrameNames names = new FrameNames(stitcher, symbolizer, tree.frames());
            IntArrayList path = new IntArrayList();
            long[] count = {0};
            stitcher.samples().forEach(s -> {
                add(tree, names, path, s);
                count[0]++;
            });
            return new Profile(tree, stitcher.counters(), count[0]);
        }
    }

    private static void add(CallingContextTree tree, FrameNames names, IntArrayList path, StitchedSample s) {
        path.clear();
        for (PathFrame element : s.pathRootFirst()) path.addAll(names.frames(element));
        tree.addSample(s.threadSeq(), path.toArray(), s.state(), s.weightNs());
    }
}
