package org.ompprof.calltree.build;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.collections.impl.map.mutable.primitive.IntIntHashMap;
import org.eclipse.collections.impl.map.mutable.primitive.IntObjectHashMap;
import org.eclipse.collections.impl.map.mutable.primitive.LongObjectHashMap;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.profile.RegionTable;
import org.ompprof.sampler.omp.WaitClass;
import org.ompprof.unwinder.stitch.PathFrame;
import org.ompprof.unwinder.stitch.StitchedSample;
import org.ompprof.unwinder.stitch.Stitcher;
import org.ompprof.unwinder.symbols.SourceFrame;
import org.ompprof.unwinder.symbols.Symbolizer;

/**
 * Sums each thread's time in each parallel region by what it did (work, barrier, mutex, idle,
 * other), by region: the tree node of the context that opened it and the source line of the
 * construct (two constructs in one function are two regions). The ompP-style table of the
 * report. A region is placed when its first sample comes and its sums join its region's at once,
 * so what is kept per region instance is its place (a map entry), not its sums: a program opening
 * a region every millisecond for an hour costs a few tens of MB here, not hundreds.
 */
final class RegionStage {
    private static final RegionTable.Column[] BY_CLASS = {
        RegionTable.Column.WORK,
        RegionTable.Column.IDLE,
        RegionTable.Column.BARRIER,
        RegionTable.Column.MUTEX,
        RegionTable.Column.OTHER
    };
    /**
     * A body node holds at least this share of the samples its region's heaviest one holds: a sample taken as a
     * thread passed from one region to the next (a late signal, a stale view) does not make its node a body node.
     */
    private static final int BODY_SHARE = 8;

    private final Stitcher stitcher;
    private final FrameNames names;
    private final Symbolizer symbolizer;
    private final CallingContextTree tree;
    /** Region id to its region's sums. */
    private final LongObjectHashMap<Sums> placed = new LongObjectHashMap<>();
    /** Where {@link #placed} keeps the program's implicit outermost region, which the table leaves out. */
    private final Sums implicit = new Sums(new RegionTable.Region(-1, null, 0));

    private final Map<RegionTable.Region, Sums> byRegion = new HashMap<>();
    /** The node of each opening context, sampled or (see {@link #placeRecorded}) not. */
    private final Map<List<PathFrame>, Integer> nodeOfContext = new HashMap<>();
    /** Each call site's source line, by its address (0 for an unknown site). */
    private final LongObjectHashMap<SourceFrame> siteOf = new LongObjectHashMap<>();
    /** Regions opened per region, all of them (see {@link #placeRecorded}); empty before. */
    private final Map<RegionTable.Region, Integer> recorded = new HashMap<>();

    /** One region's sums: per thread, time per column; its sampled instances, and its body nodes. */
    private static final class Sums {
        final RegionTable.Region region;
        final IntObjectHashMap<long[]> byThread = new IntObjectHashMap<>();
        int sampledInstances;
        /** The body node above each tree node its samples were at (-1: none), each looked for once. */
        final IntIntHashMap bodyOf = new IntIntHashMap();
        /** Samples per body node. */
        final IntIntHashMap bodySamples = new IntIntHashMap();

        Sums(RegionTable.Region region) {
            this.region = region;
        }
    }

    RegionStage(Stitcher stitcher, FrameNames names, Symbolizer symbolizer, CallingContextTree tree) {
        this.stitcher = stitcher;
        this.names = names;
        this.symbolizer = symbolizer;
        this.tree = tree;
    }

    /** A sample at tree node {@code node}. */
    void sample(StitchedSample s, int node) {
        if (s.regionId() == 0) return;
        Sums sums = place(s.regionId());
        if (sums == implicit) return;
        WaitClass c = WaitClass.of(s.state(), s.kind() == StitchedSample.Kind.IDLE);
        long[] ns = sums.byThread.getIfAbsentPut(s.threadSeq(), () -> new long[RegionTable.Column.values().length]);
        ns[BY_CLASS[c.ordinal()].ordinal()] += s.weightNs();
        int body = sums.bodyOf.getIfAbsent(node, Integer.MIN_VALUE);
        if (body == Integer.MIN_VALUE) sums.bodyOf.put(node, body = bodyOn(node, sums.region.node()));
        if (body >= 0) sums.bodySamples.addToValue(body, 1);
    }

    /** The region's body nodes, increasing: those with a share of its samples (see {@link #BODY_SHARE}). */
    private static int[] bodyNodes(Sums sums) {
        int most = sums.bodySamples.isEmpty() ? 0 : sums.bodySamples.values().max();
        return sums.bodySamples
                .select((node, samples) -> (long) samples * BODY_SHARE >= most)
                .keySet()
                .toSortedArray();
    }

    /**
     * The body node a sample's node lies under: its ancestor right under the opening context, if that is the
     * program's code (not the runtime, nor a placeholder such as the end barrier's); else -1.
     */
    private int bodyOn(int node, int context) {
        int n = node;
        while (n != CallingContextTree.ROOT && tree.parent(n) != context) n = tree.parent(n);
        if (n == CallingContextTree.ROOT) return -1;
        FrameKind kind = tree.frameOf(n).kind();
        return kind == FrameKind.USER || kind == FrameKind.INLINED ? n : -1;
    }

    /** The region's sums, found at its first sample; the program's implicit outermost region is {@link #implicit}. */
    private Sums place(long regionId) {
        Sums known = placed.get(regionId);
        if (known != null) return known;
        List<PathFrame> context = stitcher.regionContext(regionId);
        Sums sums = implicit;
        if (!context.isEmpty()) {
            int node = nodeOfContext.computeIfAbsent(context, c -> tree.path(names.path(c)));
            sums = byRegion.computeIfAbsent(region(node, stitcher.regionCallSiteAddress(regionId)), Sums::new);
            sums.sampledInstances++;
        }
        placed.put(regionId, sums);
        return sums;
    }

    /** The region of a construct at {@code callSite} (a return address; 0 unknown) in the context at {@code node}. */
    private RegionTable.Region region(int node, long callSite) {
        SourceFrame s =
                siteOf.getIfAbsentPutWithKey(callSite, a -> SourceLines.of(stitcher, symbolizer, a, names.clock()));
        return s == null || s.line() <= 0
                ? new RegionTable.Region(node, null, 0)
                : new RegionTable.Region(node, s.file(), s.line());
    }

    /**
     * Counts every region the recording saw opened (short ones are often not sampled at all) into the region it is
     * one of, on the building thread once the samples are in (it names contexts no sample named).
     */
    void placeRecorded() {
        stitcher.regionCountsBySite().forEach((site, n) -> {
            if (site.context().isEmpty()) return;
            Integer node = nodeOfContext.get(site.context());
            if (node == null) node = tree.find(names.path(site.context()));
            if (node >= 0) recorded.merge(region(node, site.callSite()), n, Integer::sum);
        });
    }

    /** One row per region and thread, with how many times that region was opened in all. */
    RegionTable table() {
        List<Sums> regions = new ArrayList<>(byRegion.values());
        regions.sort(Comparator.comparingInt((Sums r) -> r.region.node())
                .thenComparingInt(r -> r.region.line())
                .thenComparing(r -> r.region.file(), Comparator.nullsFirst(Comparator.naturalOrder())));
        List<RegionTable.Row> rows = new ArrayList<>();
        for (Sums r : regions) {
            int instances = Math.max(recorded.getOrDefault(r.region, 0), r.sampledInstances);
            int[] body = bodyNodes(r);
            for (int thread : r.byThread.keySet().toSortedArray()) {
                rows.add(new RegionTable.Row(
                        r.region.node(),
                        instances,
                        r.region.file(),
                        r.region.line(),
                        thread,
                        r.byThread.get(thread),
                        body));
            }
        }
        return new RegionTable(rows);
    }
}
