package org.ompprof.calltree.build;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.collections.impl.map.mutable.primitive.IntIntHashMap;
import org.eclipse.collections.impl.map.mutable.primitive.IntObjectHashMap;
import org.eclipse.collections.impl.map.mutable.primitive.LongIntHashMap;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.profile.RegionTable;
import org.ompprof.sampler.omp.WaitClass;
import org.ompprof.unwinder.stitch.PathFrame;
import org.ompprof.unwinder.stitch.StitchedSample;
import org.ompprof.unwinder.stitch.Stitcher;
import org.ompprof.unwinder.symbols.SourceFrame;
import org.ompprof.unwinder.symbols.Symbolizer;

/**
 * Sums each thread's time in each parallel region by what it did (work, barrier, mutex, idle,
 * other), by the tree node of the context that opened the region, with the source line of the
 * construct: the ompP-style table of the report. A region is placed when its first sample comes
 * and its sums join its context's at once, so what is kept per region instance is its place
 * (a map entry), not its sums: a program opening a region every millisecond for an hour costs
 * a few tens of MB here, not hundreds.
 */
final class RegionStage {
    private static final RegionTable.Column[] BY_CLASS = {
        RegionTable.Column.WORK,
        RegionTable.Column.IDLE,
        RegionTable.Column.BARRIER,
        RegionTable.Column.MUTEX,
        RegionTable.Column.OTHER
    };
    private static final int IMPLICIT = -1;

    private final Stitcher stitcher;
    private final FrameNames names;
    private final Symbolizer symbolizer;
    private final CallingContextTree tree;
    /** Region id to the node of its opening context ({@link #IMPLICIT} for the program's outermost region). */
    private final LongIntHashMap placed = new LongIntHashMap();
    /** Node to thread to time per column. */
    private final IntObjectHashMap<IntObjectHashMap<long[]>> byNode = new IntObjectHashMap<>();

    private final IntIntHashMap instances = new IntIntHashMap();
    /** The node of each opening context seen in samples, to count the regions opened there that were never sampled. */
    private final Map<List<PathFrame>, Integer> nodeOfContext = new HashMap<>();

    private final IntObjectHashMap<SourceFrame> site = new IntObjectHashMap<>();

    RegionStage(Stitcher stitcher, FrameNames names, Symbolizer symbolizer, CallingContextTree tree) {
        this.stitcher = stitcher;
        this.names = names;
        this.symbolizer = symbolizer;
        this.tree = tree;
    }

    void sample(StitchedSample s) {
        if (s.regionId() == 0) return;
        int node = place(s.regionId());
        if (node == IMPLICIT) return;
        WaitClass c = WaitClass.of(s.state(), s.kind() == StitchedSample.Kind.IDLE);
        long[] ns = byNode.getIfAbsentPut(node, IntObjectHashMap::new)
                .getIfAbsentPut(s.threadSeq(), () -> new long[RegionTable.Column.values().length]);
        ns[BY_CLASS[c.ordinal()].ordinal()] += s.weightNs();
    }

    /** The region's context node, found at its first sample; the program's implicit outermost region is left out. */
    private int place(long region) {
        int known = placed.getIfAbsent(region, Integer.MIN_VALUE);
        if (known != Integer.MIN_VALUE) return known;
        List<PathFrame> context = stitcher.regionContext(region);
        int node = IMPLICIT;
        if (!context.isEmpty()) {
            node = tree.path(names.path(context));
            instances.addToValue(node, 1);
            nodeOfContext.putIfAbsent(context, node);
            if (!site.containsKey(node)) {
                int n = node;
                stitcher.regionCallSite(region)
                        .ifPresent(f -> site.put(n, SourceLines.of(stitcher, symbolizer, f, names.clock())));
            }
        }
        placed.put(region, node);
        return node;
    }

    /**
     * Regions opened in the same context are one row per thread, with how many regions that
     * context opened in all (short ones are often not sampled at all).
     */
    RegionTable table() {
        IntIntHashMap all = new IntIntHashMap();
        stitcher.regionCountsByContext().forEach((context, n) -> {
            Integer node = nodeOfContext.get(context);
            if (node != null) all.addToValue(node, n);
        });
        List<RegionTable.Row> rows = new ArrayList<>();
        for (int node : byNode.keySet().toSortedArray()) {
            SourceFrame s = site.get(node);
            IntObjectHashMap<long[]> threads = byNode.get(node);
            for (int thread : threads.keySet().toSortedArray()) {
                rows.add(new RegionTable.Row(
                        node,
                        Math.max(all.get(node), instances.get(node)),
                        s == null ? null : s.file(),
                        s == null ? 0 : Math.max(0, s.line()),
                        thread,
                        threads.get(thread)));
            }
        }
        return new RegionTable(rows);
    }
}
