package org.ompprof.ui.pipeline;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.collections.impl.list.mutable.primitive.IntArrayList;
import org.eclipse.collections.impl.map.mutable.primitive.IntIntHashMap;
import org.eclipse.collections.impl.map.mutable.primitive.IntObjectHashMap;
import org.eclipse.collections.impl.map.mutable.primitive.LongObjectHashMap;
import org.ompprof.blame.WaitClass;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.profile.RegionTable;
import org.ompprof.unwinder.stack.Module;
import org.ompprof.unwinder.stitch.PathFrame;
import org.ompprof.unwinder.stitch.StitchedSample;
import org.ompprof.unwinder.stitch.Stitcher;
import org.ompprof.unwinder.symbols.SourceFrame;
import org.ompprof.unwinder.symbols.Symbolizer;

/**
 * Sums each thread's time in each parallel region by what it did (work, barrier, mutex, idle,
 * other), then names regions by the tree node of the context that opened them and the source
 * line of the construct: the ompP-style table of the report.
 */
final class RegionStage {
    private static final RegionTable.Column[] BY_CLASS = {
        RegionTable.Column.WORK, RegionTable.Column.IDLE, RegionTable.Column.BARRIER, RegionTable.Column.MUTEX, RegionTable.Column.OTHER};

    /** Region id to thread to time per column. */
    private final LongObjectHashMap<IntObjectHashMap<long[]>> byRegion = new LongObjectHashMap<>();

    void sample(StitchedSample s) {
        if (s.regionId() == 0) return;
        WaitClass c = WaitClass.of(s.state(), s.kind() == StitchedSample.Kind.IDLE);
        long[] ns = byRegion.getIfAbsentPut(s.regionId(), IntObjectHashMap::new).getIfAbsentPut(s.threadSeq(),
                () -> new long[RegionTable.Column.values().length]);
        ns[BY_CLASS[c.ordinal()].ordinal()] += s.weightNs();
    }

    /** Regions opened in the same context are one row per thread; the program's implicit outermost region is left out. */
    RegionTable table(Stitcher stitcher, FrameNames names, Symbolizer symbolizer, CallingContextTree tree) {
        IntObjectHashMap<IntObjectHashMap<long[]>> byNode = new IntObjectHashMap<>();
        IntIntHashMap instances = new IntIntHashMap();
        IntObjectHashMap<SourceFrame> site = new IntObjectHashMap<>();
        byRegion.forEachKeyValue((region, threads) -> {
            List<PathFrame> context = stitcher.regionContext(region);
            if (context.isEmpty()) return;
            IntArrayList path = new IntArrayList();
            for (PathFrame f : context) path.addAll(names.frames(f));
            int node = tree.path(path.toArray());
            instances.addToValue(node, 1);
            if (!site.containsKey(node)) stitcher.regionCallSite(region).ifPresent(f -> site.put(node, SourceLines.of(stitcher, symbolizer, f)));
            IntObjectHashMap<long[]> sum = byNode.getIfAbsentPut(node, IntObjectHashMap::new);
            threads.forEachKeyValue((thread, ns) -> {
                long[] into = sum.getIfAbsentPut(thread, () -> new long[ns.length]);
                for (int i = 0; i < ns.length; i++) into[i] += ns[i];
            });
        });
        List<RegionTable.Row> rows = new ArrayList<>();
        for (int node : byNode.keySet().toSortedArray()) {
            SourceFrame s = site.get(node);
            IntObjectHashMap<long[]> threads = byNode.get(node);
            for (int thread : threads.keySet().toSortedArray()) {
                rows.add(new RegionTable.Row(node, instances.get(node), s == null ? null : s.file(), s == null ? 0 : Math.max(0, s.line()),
                        thread, threads.get(thread)));
            }
        }
        return new RegionTable(rows);
    }
}
