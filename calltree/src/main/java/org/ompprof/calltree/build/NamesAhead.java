package org.ompprof.calltree.build;

import java.util.List;
import org.eclipse.collections.impl.map.mutable.primitive.IntObjectHashMap;
import org.eclipse.collections.impl.map.mutable.primitive.LongObjectHashMap;
import org.eclipse.collections.impl.set.mutable.primitive.LongHashSet;
import org.ompprof.unwinder.stitch.PathFrame;
import org.ompprof.unwinder.stitch.StitchedSample;
import org.ompprof.unwinder.stitch.Stitcher;
import org.ompprof.unwinder.symbols.Symbolizer;

/**
 * On the thread that stitches samples ahead: asks the symbolizer, in one round trip per module
 * and batch, for the pcs of the batch's paths not asked for before, so that when the building
 * thread names them (FrameNames) the answers are cached and it does not wait on llvm-symbolizer.
 * An answer does not depend on who asks or when, so the profile is the same.
 */
final class NamesAhead {
    private final Stitcher stitcher;
    private final Symbolizer symbolizer;
    /** Pcs asked for, by module: each is asked once. */
    private final LongObjectHashMap<LongHashSet> asked = new LongObjectHashMap<>();
    /** Per thread, its last sample's path: the stitcher gives a thread's run of samples at one barrier one path. */
    private final IntObjectHashMap<List<PathFrame>> lastPaths = new IntObjectHashMap<>();

    NamesAhead(Stitcher stitcher, Symbolizer symbolizer) {
        this.stitcher = stitcher;
        this.symbolizer = symbolizer;
    }

    void ask(List<StitchedSample> batch) {
        LongObjectHashMap<LongHashSet> fresh = new LongObjectHashMap<>();
        long inModule = -1;
        LongHashSet askedOfModule = null; // a path's frames run in a few modules: looked up when the module changes
        for (int k = 0; k < batch.size(); k++) {
            StitchedSample s = batch.get(k);
            List<PathFrame> path = s.pathRootFirst();
            if (lastPaths.put(s.threadSeq(), path) == path) continue; // a run of samples at one barrier, or idle
            for (int i = 0; i < path.size(); i++) {
                PathFrame.Code c = switch (path.get(i)) {
                    case PathFrame.Code code -> code;
                    case PathFrame.Construct construct -> construct.site();
                    default -> null;
                };
                if (c == null) continue;
                if (c.moduleId() != inModule || askedOfModule == null) {
                    inModule = c.moduleId();
                    askedOfModule = asked.getIfAbsentPut(inModule, LongHashSet::new);
                }
                if (askedOfModule.add(c.lookupPc()))
                    fresh.getIfAbsentPut(inModule, LongHashSet::new).add(c.lookupPc());
            }
        }
        fresh.forEachKeyValue((module, pcs) ->
                stitcher.module(module).ifPresent(m -> symbolizer.symbolizeAll(m, pcs.toSortedArray())));
    }
}
