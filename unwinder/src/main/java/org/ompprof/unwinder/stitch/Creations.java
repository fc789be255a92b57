package org.ompprof.unwinder.stitch;

import org.eclipse.collections.impl.map.mutable.primitive.IntIntHashMap;
import org.eclipse.collections.impl.map.mutable.primitive.IntObjectHashMap;
import org.eclipse.collections.impl.map.mutable.primitive.LongIntHashMap;
import org.eclipse.collections.impl.map.mutable.primitive.LongLongHashMap;
import org.eclipse.collections.impl.map.mutable.primitive.LongObjectHashMap;
import org.eclipse.collections.impl.set.mutable.primitive.LongHashSet;
import org.ompprof.sampler.omp.TaskFlags;
import org.ompprof.sampler.record.ImplicitTask;
import org.ompprof.sampler.record.MutexSite;
import org.ompprof.sampler.record.ParallelBegin;
import org.ompprof.sampler.record.ParallelEnd;
import org.ompprof.sampler.record.RegionBatch;
import org.ompprof.sampler.record.TargetEvent;
import org.ompprof.sampler.record.TaskBatch;
import org.ompprof.sampler.record.TaskCreate;
import org.ompprof.sampler.record.ThreadBegin;
import org.ompprof.sampler.record.WireRecord;
import org.ompprof.sampler.wire.Wire;

/**
 * Who created what, from one pass over a recording's callback records: for every parallel
 * region and explicit task, the creating (encountering) task and the segment it contributes;
 * for every implicit task, its region; which tasks and regions are initial; when regions
 * ended; which threads are the runtime's workers. Samples are stitched against this, so
 * it must be complete before the first sample is: records of other threads may come later.
 *
 * <p>Cost per explicit task: one unwind of its creation context for the first of its shape, then
 * a slot in {@link TaskOrigins}' arrays (12 to 24 bytes, no object); its segment is interned, so
 * tasks created at the same call site in the same context share one.
 */
final class Creations {
    /** @param parentTaskId the encountering task */
    record Origin(long parentTaskId, Segment segment) {}

    final LongObjectHashMap<Origin> regions = new LongObjectHashMap<>();
    final TaskOrigins tasks = new TaskOrigins();
    /** Target constructs by the agent's target id: the encountering task and the launch segment. */
    final LongObjectHashMap<Origin> targets = new LongObjectHashMap<>();

    final LongLongHashMap regionOfImplicitTask = new LongLongHashMap();
    final LongHashSet initialTasks = new LongHashSet();
    final LongHashSet initialRegions = new LongHashSet();
    final LongLongHashMap regionEndNs = new LongLongHashMap();
    /** Region to the user's return address of the call that opened it. */
    final LongLongHashMap regionCallSite = new LongLongHashMap();

    /** Where written mutex holds were released: per thread, by the release's time, the holding task and segment. */
    final IntObjectHashMap<LongObjectHashMap<Origin>> releaseSites = new IntObjectHashMap<>();

    final IntIntHashMap threadTypes = new IntIntHashMap();
    /** Tasks created for a task running on another thread's stack, by the task their creating thread ran. */
    private final LongLongHashMap asRunning = new LongLongHashMap();

    /** The shapes such creations came with: the running task's id, tagged (packed creations come with them too). */
    private final LongHashSet asRunningShapes = new LongHashSet();

    /** How many splitting tasks deep {@link #finish} follows a chain of them. */
    private static final int MAX_SPLITS = 64;

    /** Creation segments by the agent's shape key, for the records that carry no stack. */
    private final LongObjectHashMap<Segment> byShape = new LongObjectHashMap<>();
    /** The {@link TaskOrigins#index} of a shape's segment in {@link #byShape}, once a batched task has used it. */
    private final LongIntHashMap taskSegmentOfShape = new LongIntHashMap();
    /** A region shape's call site: the shape covers it, and packed regions do not carry it. */
    private final LongLongHashMap callSiteOfShape = new LongLongHashMap();
    /** Same-shape records whose full record was never seen (dropped): their tasks stay unknown. */
    long shapesMissing;

    private final SegmentMaker segments;

    Creations(SegmentMaker segments) {
        this.segments = segments;
    }

    /** Whether {@link #add} uses records of this wire type: the others need not be decoded. */
    static boolean reads(int type) {
        return switch (type) {
            case Wire.REC_PARALLEL_BEGIN,
                    Wire.REC_TASK_CREATE,
                    Wire.REC_TASK_BATCH,
                    Wire.REC_TASK_BATCH_PACKED,
                    Wire.REC_IMPLICIT_TASK,
                    Wire.REC_PARALLEL_END,
                    Wire.REC_REGION_BATCH_PACKED,
                    Wire.REC_THREAD_BEGIN,
                    Wire.REC_TARGET,
                    Wire.REC_MUTEX_SITE -> true;
            default -> false;
        };
    }

    void add(WireRecord record) {
        switch (record) {
            case ParallelBegin p -> region(p);
            case TaskCreate t -> task(t);
            case TaskBatch b -> b.forEachEntry(this::sameShape);
            case ImplicitTask i -> implicitTask(i);
            case ParallelEnd e -> regionEndNs.put(e.parallelId(), e.timeNs());
            case RegionBatch b -> b.entries().forEach(this::packedRegion);
            case ThreadBegin b -> threadTypes.put(b.threadSeq(), b.threadType());
            case MutexSite m -> releaseSite(m);
            case TargetEvent t
            when t.endpoint() == 1 ->
                targets.put(
                        t.targetId(),
                        new Origin(t.taskId(), segments.launch(t.context(), t.codeptrRa(), t.encExitFrame())));
            default -> {}
        }
    }

    /**
     * A region opened in a context whose shape the thread sent before (the agent then sends no
     * stack) shares that one's segment; if that one was never seen, the region's context is unknown.
     */
    private void region(ParallelBegin p) {
        regionCallSite.put(p.parallelId(), p.codeptrRa());
        if (!p.sameShape() && p.shape() != 0) callSiteOfShape.put(p.shape(), p.codeptrRa());
        Segment segment = shaped(
                p.sameShape(), p.shape(), () -> segments.creation(p.context(), p.encExitFrame(), p.encEnterFrame()));
        if (segment != null) regions.put(p.parallelId(), new Origin(p.parentTaskId(), segment));
    }

    /** A region the agent packed with its end: a same-shape ParallelBegin and its ParallelEnd in one. */
    private void packedRegion(RegionBatch.Entry e) {
        regionEndNs.put(e.parallelId(), e.endNs());
        Segment segment = byShape.get(e.shape());
        if (segment == null) {
            shapesMissing++;
            return;
        }
        regionCallSite.put(e.parallelId(), callSiteOfShape.get(e.shape()));
        regions.put(e.parallelId(), new Origin(e.parentTaskId(), segment));
    }

    /**
     * The segment a record with a context stands for: that of the earlier record of its shape when it carries no
     * stack (null, counted missing, if that one was never seen), else made from its stack and kept for the records
     * of its shape to come.
     */
    private Segment shaped(boolean sameShape, long shape, java.util.function.Supplier<Segment> make) {
        Segment segment = sameShape ? byShape.get(shape) : make.get();
        if (segment == null) shapesMissing++;
        else if (!sameShape && shape != 0) keep(shape, segment);
        return segment;
    }

    /**
     * A task whose creation has the shape of an earlier one (the agent then sends no stack)
     * shares that one's segment; if that one was never seen, the task's context is unknown.
     */
    private void task(TaskCreate t) {
        if (t.taskId() == 0) return;
        if (t.sameShape()) {
            sameShape(t.taskId(), t.parentTaskId(), t.shape());
            return;
        }
        Segment segment = segments.creation(t.context(), t.encExitFrame(), t.encEnterFrame());
        if (t.shape() != 0) keep(t.shape(), segment);
        if (t.createdAsRunning() && t.shape() != 0) {
            asRunningShapes.add(t.shape());
            createdAsRunning(t.taskId(), runningOf(t.shape()));
        }
        tasks.put(t.taskId(), t.parentTaskId(), tasks.index(segment));
    }

    /** The task an as-running creation's shape names. */
    private static long runningOf(long shape) {
        return shape & ~Wire.AS_RUNNING_SHAPE;
    }

    /** The task was created by a thread running task {@code running} (0: none known), for a task on another stack. */
    void createdAsRunning(long taskId, long running) {
        if (running != 0) asRunning.put(taskId, running);
    }

    /**
     * Once every record is in: a task created for a task on another thread's stack (a split taskloop's chunk, created
     * by the thread running a splitting task) takes the segment of the task its thread ran, if that one was created by
     * the same task (its segment is then that task's frames at the construct); else it keeps its truncated one. The
     * running task may be such a creation itself (a split split again): followed to the first created on its
     * creator's own stack.
     */
    void finish() {
        asRunning.forEachKeyValue((task, running) -> {
            long parent = tasks.get(task).parentTaskId();
            long at = running;
            for (int hops = 0; hops < MAX_SPLITS && asRunning.containsKey(at); hops++) at = asRunning.get(at);
            Origin origin = asRunning.containsKey(at) ? null : tasks.get(at);
            if (origin != null && origin.parentTaskId() == parent)
                tasks.put(task, parent, tasks.index(origin.segment()));
        });
        asRunning.clear();
        asRunningShapes.clear();
    }

    /** The segment the records of this shape to come stand for. */
    private void keep(long shape, Segment segment) {
        byShape.put(shape, segment);
        taskSegmentOfShape.remove(shape);
    }

    /**
     * A release site ends at the user's frame that called the runtime to release, like a target's launch; one of a
     * shape the thread sent before shares that one's segment.
     */
    private void releaseSite(MutexSite m) {
        Segment segment =
                shaped(m.sameShape(), m.shape(), () -> segments.launch(m.context(), m.codeptrRa(), m.encExitFrame()));
        if (segment != null)
            releaseSites
                    .getIfAbsentPut(m.threadSeq(), LongObjectHashMap::new)
                    .put(m.timeNs(), new Origin(m.taskId(), segment));
    }

    /** A creation (batched by the agent) of a shape sent before: it shares that one's segment. */
    private void sameShape(long taskId, long parentTaskId, long shape) {
        int index = taskSegmentOfShape.getIfAbsent(shape, -1);
        if (index < 0) {
            Segment segment = byShape.get(shape);
            if (segment == null) {
                shapesMissing++;
                return;
            }
            index = tasks.index(segment);
            taskSegmentOfShape.put(shape, index);
        }
        tasks.put(taskId, parentTaskId, index);
        if (!asRunningShapes.isEmpty() && asRunningShapes.contains(shape)) createdAsRunning(taskId, runningOf(shape));
    }

    /** Only the begin endpoint carries the region (libomp passes none at the end). */
    private void implicitTask(ImplicitTask i) {
        if (i.endpoint() != 1) return;
        if (i.parallelId() != 0) regionOfImplicitTask.put(i.taskId(), i.parallelId());
        if ((i.flags() & TaskFlags.INITIAL) != 0) {
            initialTasks.add(i.taskId());
            if (i.parallelId() != 0) initialRegions.add(i.parallelId());
        }
    }

    /** When the region ended, or Long.MAX_VALUE if it did not (or its end was lost). */
    long regionEnd(long parallelId) {
        return regionEndNs.getIfAbsent(parallelId, Long.MAX_VALUE);
    }
}
