package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Chunks of a split taskloop created on threads other than the taskloop's: created for the taskloop's task (2), whose
 * frames lie on its own thread, each takes the segment of the splitting task its thread ran, once every record is in
 * ({@link Creations#finish}). Task 2 created splitting task 3 at the taskloop (its segment: the region's body at the
 * taskloop's call); a thread running 3 created splitting task 4 and chunk 10; one running 4 created chunk 11.
 */
class SplitTaskloopOriginsTest {
    private static final Segment AT_TASKLOOP =
            new Segment(List.of(new PathFrame.Code(1, "/bin/prog", 0x30, true)), Gap.NONE);
    private static final Segment OFF_STACK = new Segment(List.of(Placeholder.TRUNCATED), Gap.TRUNCATED);

    private final Creations index = new Creations(null);

    private void created(long task, long parent, Segment segment) {
        index.tasks.put(task, parent, index.tasks.index(segment));
    }

    @Test
    void chunksTakeTheSegmentOfTheSplittingTaskTheirThreadRan() {
        created(3, 2, AT_TASKLOOP);
        created(4, 2, OFF_STACK);
        index.createdAsRunning(4, 3);
        created(10, 2, OFF_STACK);
        index.createdAsRunning(10, 3);
        created(11, 2, OFF_STACK);
        index.createdAsRunning(11, 4);
        index.finish();
        for (long task : new long[] {4, 10, 11}) {
            assertEquals(new Creations.Origin(2, AT_TASKLOOP), index.tasks.get(task), "task " + task);
        }
    }

    @Test
    void aRunningTaskOfAnotherCreatorLeavesTheChunkTruncated() {
        created(3, 7, AT_TASKLOOP);
        created(10, 2, OFF_STACK);
        index.createdAsRunning(10, 3);
        created(11, 2, OFF_STACK);
        index.createdAsRunning(11, 99); // never seen
        created(12, 2, OFF_STACK);
        index.createdAsRunning(12, 0); // none known
        index.finish();
        for (long task : new long[] {10, 11, 12}) {
            assertEquals(new Creations.Origin(2, OFF_STACK), index.tasks.get(task), "task " + task);
        }
    }
}
