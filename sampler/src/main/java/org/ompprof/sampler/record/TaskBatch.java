package org.ompprof.sampler.record;

import java.util.List;

import org.ompprof.sampler.wire.Wire;

/**
 * Explicit task creations of shapes the thread already sent with a stack ({@link TaskCreate}),
 * batched by the agent: each entry's creation segment is that of the TaskCreate with the same
 * shape. {@code timeNs} is when the batch was written, not when the tasks were created.
 */
public record TaskBatch(int threadSeq, long timeNs, List<Entry> entries) implements WireRecord {
    public TaskBatch {
        entries = List.copyOf(entries);
    }

    /** One created task: its id, the task that created it, the shape of its creation. */
    public record Entry(long taskId, long parentTaskId, long shape) {}

    @Override
    public int type() {
        return Wire.REC_TASK_BATCH;
    }
}
