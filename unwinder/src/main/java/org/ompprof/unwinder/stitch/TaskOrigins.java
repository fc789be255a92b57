package org.ompprof.unwinder.stitch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.collections.impl.map.mutable.primitive.LongIntHashMap;
import org.eclipse.collections.impl.map.mutable.primitive.LongLongHashMap;

/**
 * Explicit tasks by id: the task that created each and its creation segment. A task program creates millions, and
 * every one is kept (a sample may land in any, or under any as an ancestor), so no object is made a task: the agent
 * numbers tasks from 1 up, so ids index two arrays (the parent, and the segment as its index among the few distinct
 * ones); an id far past the tasks seen (a damaged recording's) goes to primitive maps. Where an object and a map entry
 * a task were, they were a tenth of a task program's build and most of its garbage.
 */
final class TaskOrigins {
    /** Ids below this index the arrays at first; they grow to what the tasks seen justify. */
    private static final int FIRST_DENSE = 1 << 16;

    private long[] parents = new long[FIRST_DENSE];
    private int[] segmentPlusOne = new int[FIRST_DENSE]; // 0: no task
    private int dense;
    private final LongLongHashMap sparseParents = new LongLongHashMap();
    private final LongIntHashMap sparseSegment = new LongIntHashMap();
    private final List<Segment> segments = new ArrayList<>();
    private final Map<Segment, Integer> indexOf = new HashMap<>();

    /** The index {@link #put} takes for {@code segment}; equal segments share one. */
    int index(Segment segment) {
        return indexOf.computeIfAbsent(segment, s -> {
            segments.add(s);
            return segments.size() - 1;
        });
    }

    /** @param segment an index from {@link #index} */
    void put(long taskId, long parentTaskId, int segment) {
        if (taskId >= 0 && (taskId < parents.length || grows(taskId))) {
            if (!sparseSegment.isEmpty() && sparseSegment.containsKey(taskId)) { // kept there before the arrays grew
                sparseSegment.remove(taskId);
                sparseParents.remove(taskId);
            }
            if (segmentPlusOne[(int) taskId] == 0) dense++;
            parents[(int) taskId] = parentTaskId;
            segmentPlusOne[(int) taskId] = segment + 1;
        } else {
            sparseParents.put(taskId, parentTaskId);
            sparseSegment.put(taskId, segment);
        }
    }

    /** Whether the arrays grew to take {@code taskId}: while they stay under eight slots for every task seen. */
    private boolean grows(long taskId) {
        int limit = Integer.MAX_VALUE - 8; // the largest array
        if (taskId >= limit) return false;
        long want = parents.length;
        while (want <= taskId) want *= 2;
        want = Math.min(want, limit);
        if (want > 8L * (size() + FIRST_DENSE)) return false;
        parents = Arrays.copyOf(parents, (int) want);
        segmentPlusOne = Arrays.copyOf(segmentPlusOne, (int) want);
        return true;
    }

    boolean contains(long taskId) {
        return segmentOf(taskId) >= 0;
    }

    /** The task's origin, or null if its creation is not known. */
    Creations.Origin get(long taskId) {
        if (inArrays(taskId))
            return new Creations.Origin(parents[(int) taskId], segments.get(segmentPlusOne[(int) taskId] - 1));
        int i = sparseSegment.getIfAbsent(taskId, -1);
        return i < 0 ? null : new Creations.Origin(sparseParents.get(taskId), segments.get(i));
    }

    private int segmentOf(long taskId) {
        return inArrays(taskId) ? segmentPlusOne[(int) taskId] - 1 : sparseSegment.getIfAbsent(taskId, -1);
    }

    /** Whether the task is kept in the arrays (else it is in the maps, if anywhere: kept before they grew to it). */
    private boolean inArrays(long taskId) {
        return taskId >= 0 && taskId < parents.length && segmentPlusOne[(int) taskId] != 0;
    }

    int size() {
        return dense + sparseSegment.size();
    }
}
