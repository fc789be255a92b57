package org.ompprof.sampler.record;

import java.util.List;
import org.ompprof.sampler.wire.Wire;

/**
 * Explicit task creations of shapes the thread already sent with a stack ({@link TaskCreate}),
 * batched by the agent: each entry's creation segment is that of the TaskCreate with the same
 * shape. {@code timeNs} is when the batch was written, not when the tasks were created.
 * {@code packed}: it came as (or is to be written as) {@code TASK_BATCH_PACKED}, which the agent
 * writes; the plain form is what earlier agents wrote.
 */
public record TaskBatch(int threadSeq, long timeNs, List<Entry> entries, boolean packed) implements WireRecord {
    public TaskBatch {
        entries = entries instanceof TaskEntries ? entries : List.copyOf(entries);
    }

    /** A batch in the plain form (any ids; the packed form needs them to grow). */
    public TaskBatch(int threadSeq, long timeNs, List<Entry> entries) {
        this(threadSeq, timeNs, entries, false);
    }

    /** One created task: its id, the task that created it, the shape of its creation. */
    public record Entry(long taskId, long parentTaskId, long shape) {}

    /** What {@link #forEachEntry} hands each entry to. */
    @FunctionalInterface
    public interface EntrySink {
        void accept(long taskId, long parentTaskId, long shape);
    }

    /** Each entry in order, without making entry objects of a decoded packed batch. */
    public void forEachEntry(EntrySink sink) {
        if (entries instanceof TaskEntries t) t.forEachEntry(sink);
        else for (Entry e : entries) sink.accept(e.taskId(), e.parentTaskId(), e.shape());
    }

    @Override
    public int type() {
        return packed ? Wire.REC_TASK_BATCH_PACKED : Wire.REC_TASK_BATCH;
    }
}
