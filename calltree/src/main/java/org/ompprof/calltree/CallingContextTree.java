package org.ompprof.calltree;

import java.util.Arrays;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;
import org.ompprof.sampler.omp.OmpState;

/**
 * A calling-context tree: one node per distinct call path, with exclusive metric values per
 * node and thread. Node {@link #ROOT} has no frame; the first frame of every path is one of
 * its children ({@link #roots()}).
 *
 * <p>Building: {@link #path} or {@link #child} give a path's node, {@link #add} and
 * {@link #addSample} add values to it. Queries: exclusive and inclusive values per node, per
 * thread or summed over threads; whole-tree arrays behind them are computed on first use and
 * dropped on the next change, so build first and query afterwards.
 *
 * <p>Not thread-safe. To build in parallel, build one tree per worker on a shared (externally
 * synchronized) or per-worker frame table and {@link #addAll merge} them.
 */
public final class CallingContextTree {
    public static final int ROOT = NodeTable.ROOT;
    /** The largest thread number values can be recorded for. */
    public static final int MAX_THREAD = ValueTable.MAX_THREAD;

    private final FrameTable frames;
    private final MetricRegistry metrics;
    private final NodeTable nodes;
    private final ValueTable values;
    private final DerivedValues derived = new DerivedValues();
    private final PathCache pathCache = new PathCache();
    private final SampleMetrics sampleMetrics;

    /** A tree over {@code frames} and {@code metrics}; the standard metrics are registered if missing. */
    public CallingContextTree(FrameTable frames, MetricRegistry metrics) {
        this.frames = frames;
        this.metrics = metrics;
        this.nodes = new NodeTable(frames);
        this.values = new ValueTable(metrics);
        this.sampleMetrics = SampleMetrics.resolve(metrics);
    }

    /** An empty tree with its own frame table and a standard registry. */
    public static CallingContextTree create() {
        return new CallingContextTree(new FrameTable(), MetricRegistry.standard());
    }

    public FrameTable frames() {
        return frames;
    }

    public MetricRegistry metrics() {
        return metrics;
    }

    // ---- building ----

    /** The child of {@code parent} for frame id {@code frame}, created if absent. */
    public int child(int parent, int frame) {
        nodes.checkNode(parent);
        derived.invalidate();
        return nodes.child(parent, frame);
    }

    /** The node of a path of frame ids, outermost first, created if absent; ROOT for an empty path. */
    public int path(int[] framesRootFirst) {
        return path(framesRootFirst, framesRootFirst.length);
    }

    /** As {@link #path(int[])} for the first {@code length} ids, so callers can reuse one buffer. */
    public int path(int[] framesRootFirst, int length) {
        derived.invalidate();
        return pathCache.rootFirst(nodes, framesRootFirst, length);
    }

    /** As {@link #path(int[], int)} for ids innermost first, the order an unwinder produces. */
    public int pathLeafFirst(int[] framesLeafFirst, int length) {
        derived.invalidate();
        return pathCache.leafFirst(nodes, framesLeafFirst, length);
    }

    /** Adds {@code value} to the exclusive value of {@code metric} at (node, thread). */
    public void add(int node, int thread, int metric, long value) {
        nodes.checkNode(node);
        ValueTable.checkThread(thread);
        checkMetric(metric);
        if (value == 0) return;
        values.add(values.slot(node, thread), metric, value);
        derived.invalidate();
    }

    /**
     * Adds one sample taken on {@code thread} in the context {@code pathRootFirst} (frame ids,
     * outermost first): 1 to {@code samples}, {@code weightNs} to {@code time} and to the
     * {@code time.<state>} metrics of {@code ompState} (an {@code ompt_state_t} value).
     */
    public void addSample(int thread, int[] pathRootFirst, int ompState, long weightNs) {
        addSampleAt(path(pathRootFirst), thread, ompState, weightNs);
    }

    /** As {@link #addSample(int, int[], int, long)} for a node already looked up. */
    public void addSampleAt(int node, int thread, int ompState, long weightNs) {
        nodes.checkNode(node);
        ValueTable.checkThread(thread);
        int slot = values.slot(node, thread);
        SampleMetrics m = sampleMetrics;
        values.add(slot, m.samples(), 1);
        if (weightNs != 0) {
            int state = OmpState.of(ompState).ordinal();
            values.add(slot, m.time(), weightNs);
            values.add(slot, m.stateMetric(metrics, state), weightNs);
            int group = m.stateGroupMetric()[state];
            if (group >= 0) values.add(slot, group, weightNs);
        }
        derived.invalidate();
    }

    // ---- the profile file's access (TreeCodec) ----

    NodeTable nodeTable() {
        return nodes;
    }

    ValueTable valueTable() {
        return values;
    }

    void invalidate() {
        derived.invalidate();
    }

    // ---- shape ----

    /** Number of nodes, ROOT included; node ids are 0 .. size()-1. */
    public int size() {
        return nodes.size();
    }

    public int root() {
        return ROOT;
    }

    /** The nodes of the outermost frames (the children of ROOT), in creation order. */
    public int[] roots() {
        return children(ROOT);
    }

    /** Parent of {@code node}; -1 for ROOT. */
    public int parent(int node) {
        nodes.checkNode(node);
        return nodes.parent(node);
    }

    /** Frame id of {@code node}; -1 for ROOT. */
    public int frame(int node) {
        nodes.checkNode(node);
        return nodes.frame(node);
    }

    /** The frame of {@code node}; null for ROOT. */
    public Frame frameOf(int node) {
        int id = frame(node);
        return id < 0 ? null : frames.frame(id);
    }

    /** 0 for ROOT, 1 for the outermost frames. */
    public int depth(int node) {
        nodes.checkNode(node);
        return nodes.depth(node);
    }

    /** Children in creation order. */
    public int[] children(int node) {
        nodes.checkNode(node);
        return nodes.children(node);
    }

    /** The existing child of {@code parent} for {@code frame}, or -1. */
    public int findChild(int parent, int frame) {
        nodes.checkNode(parent);
        return nodes.findChild(parent, frame);
    }

    /** The existing node of a path (frame ids, outermost first), or -1. */
    public int find(int[] framesRootFirst) {
        int node = ROOT;
        for (int i = 0; i < framesRootFirst.length && node >= 0; i++) node = nodes.findChild(node, framesRootFirst[i]);
        return node;
    }

    /** Node ids from {@code node} up to, but without, ROOT. */
    public int[] pathToRoot(int node) {
        int[] out = new int[depth(node)];
        for (int i = 0; i < out.length; i++, node = nodes.parent(node)) out[i] = node;
        return out;
    }

    /** The frame ids of {@code node}'s path, outermost first (what {@link #path} was given). */
    public int[] framePath(int node) {
        int[] out = new int[depth(node)];
        for (int i = out.length - 1; i >= 0; i--, node = nodes.parent(node)) out[i] = nodes.frame(node);
        return out;
    }

    // ---- values ----

    /** Exclusive value of {@code metric} at {@code node}, summed over threads. */
    public long exclusive(int node, int metric) {
        nodes.checkNode(node);
        return exclusiveSums(metric)[node];
    }

    /** Exclusive value of {@code metric} at {@code node} on {@code thread}. */
    public long exclusive(int node, int thread, int metric) {
        nodes.checkNode(node);
        checkMetric(metric);
        int slot = values.findSlot(node, thread);
        return slot < 0 ? 0 : values.get(slot, metric);
    }

    /** Inclusive value (the node and everything below it) of {@code metric}, summed over threads. */
    public long inclusive(int node, int metric) {
        nodes.checkNode(node);
        return inclusiveSums(metric)[node];
    }

    /** Inclusive value of {@code metric} at {@code node} on {@code thread}. */
    public long inclusive(int node, int thread, int metric) {
        nodes.checkNode(node);
        checkMetric(metric);
        return derived.inclusiveOfThread(
                        metric,
                        thread,
                        () -> Sweeps.inclusive(
                                Sweeps.exclusive(values, size(), metric, t -> t == thread), nodes.parents()))[node];
    }

    /** The exclusive values of {@code metric} at {@code node}, by thread. */
    public ThreadValues exclusiveByThread(int node, int metric) {
        nodes.checkNode(node);
        checkMetric(metric);
        int[] threads = values.threads();
        long[] byThread = new long[threads.length];
        for (int i = 0; i < threads.length; i++) {
            int slot = values.findSlot(node, threads[i]);
            if (slot >= 0) byThread[i] = values.get(slot, metric);
        }
        return ThreadValues.nonZero(threads, byThread);
    }

    /**
     * The inclusive values of {@code metric} at {@code node}, by thread: one pass over the
     * metric's values, so a viewer can show any node's threads without a per-thread array each.
     */
    public ThreadValues inclusiveByThread(int node, int metric) {
        nodes.checkNode(node);
        checkMetric(metric);
        PreorderIntervals intervals = derived.intervals(() -> PreorderIntervals.of(nodes));
        int[] threads = values.threads();
        long[] byThread = new long[threads.length];
        values.forEachNonZero(metric, (n, thread, value) -> {
            if (intervals.contains(node, n)) byThread[Arrays.binarySearch(threads, thread)] += value;
        });
        return ThreadValues.nonZero(threads, byThread);
    }

    /**
     * The sum of all values of {@code metric} (ROOT's inclusive value). One pass over the
     * metric's values unless its inclusive values are already known: asking every metric's total
     * must not cost a per-node array each.
     */
    public long total(int metric) {
        checkMetric(metric);
        return derived.total(metric, () -> {
            long[] known = derived.knownInclusiveSum(metric);
            if (known != null) return known[ROOT];
            long[] sum = {0};
            values.forEachNonZeroSlot(metric, (slot, value) -> sum[0] += value);
            return sum[0];
        });
    }

    /** The sum of all values of {@code metric} on {@code thread}. */
    public long total(int metric, int thread) {
        checkMetric(metric);
        long[] sum = {0};
        values.forEachNonZero(metric, (node, t, value) -> {
            if (t == thread) sum[0] += value;
        });
        return sum[0];
    }

    /** The threads that have any value, ascending. */
    public int[] threads() {
        return values.threads();
    }

    /** Exclusive values of {@code metric} per node (index = node id), summed over the threads accepted. */
    public long[] exclusiveByNode(int metric, IntPredicate threads) {
        checkMetric(metric);
        return Sweeps.exclusive(values, size(), metric, threads);
    }

    /** Inclusive values of {@code metric} per node, summed over threads; a copy. */
    public long[] inclusiveByNode(int metric) {
        return inclusiveSums(metric).clone();
    }

    /** Visits every non-zero exclusive value of {@code metric}, in no particular order. */
    public void forEachExclusive(int metric, ExclusiveValueConsumer consumer) {
        checkMetric(metric);
        values.forEachNonZero(metric, consumer);
    }

    /** Number of (node, thread) pairs that have values; for memory reports. */
    public int valuePairs() {
        return values.slotCount();
    }

    private long[] exclusiveSums(int metric) {
        checkMetric(metric);
        return derived.exclusiveSum(metric, () -> Sweeps.exclusive(values, size(), metric, t -> true));
    }

    private long[] inclusiveSums(int metric) {
        checkMetric(metric);
        return derived.inclusiveSum(metric, () -> Sweeps.inclusive(exclusiveSums(metric), nodes.parents()));
    }

    private void checkMetric(int metric) {
        if (metric < 0 || metric >= metrics.size()) throw new IllegalArgumentException("no metric " + metric);
    }

    // ---- merging ----

    /** Adds every path and value of {@code other} to this tree; threads keep their numbers. */
    public int[] addAll(CallingContextTree other) {
        return addAll(other, IntUnaryOperator.identity());
    }

    /**
     * Adds every path and value of {@code other}, its thread t counted as {@code threadMap(t)}
     * here (to keep the threads of two runs apart, say). Frames and metrics are matched by
     * value and name when the trees do not share their tables.
     *
     * @return this tree's node for each node of {@code other} (index = other's node id), to
     *     carry other node-keyed data (timelines, region rows) across
     */
    public int[] addAll(CallingContextTree other, IntUnaryOperator threadMap) {
        if (other == this)
            throw new IllegalArgumentException("cannot add a tree to itself; merge(a, a) makes a new tree");
        return TreeImport.into(this, other, threadMap);
    }

    /** Adds every path of {@code other}, without its values; returns this tree's node for each of other's. */
    public int[] addPaths(CallingContextTree other) {
        return TreeImport.paths(this, other);
    }

    /** A new tree, on {@code a}'s frame table and registry, holding the paths and values of both. */
    public static CallingContextTree merge(CallingContextTree a, CallingContextTree b) {
        CallingContextTree out = new CallingContextTree(a.frames, a.metrics);
        out.addAll(a);
        out.addAll(b);
        return out;
    }
}
