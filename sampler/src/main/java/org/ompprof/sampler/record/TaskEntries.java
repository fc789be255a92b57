package org.ompprof.sampler.record;

import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * A decoded packed batch's entries, held as three arrays: a task program's build decodes millions, and an object a
 * task was most of its garbage. An entry object is made only when one is asked for; {@link
 * TaskBatch#forEachEntry} reads the arrays. Immutable: the arrays are this list's own.
 */
final class TaskEntries extends AbstractList<TaskBatch.Entry> implements RandomAccess {
    private final long[] taskIds;
    private final long[] parentTaskIds;
    private final long[] shapes;

    /** Takes the arrays, of one length, as they are: the caller keeps no reference to them. */
    TaskEntries(long[] taskIds, long[] parentTaskIds, long[] shapes) {
        this.taskIds = taskIds;
        this.parentTaskIds = parentTaskIds;
        this.shapes = shapes;
    }

    @Override
    public TaskBatch.Entry get(int i) {
        return new TaskBatch.Entry(taskIds[i], parentTaskIds[i], shapes[i]);
    }

    @Override
    public int size() {
        return taskIds.length;
    }

    void forEachEntry(TaskBatch.EntrySink sink) {
        for (int i = 0; i < taskIds.length; i++) sink.accept(taskIds[i], parentTaskIds[i], shapes[i]);
    }
}
