package org.ompprof.unwinder.stitch;

import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.IntPredicate;
import org.ompprof.sampler.record.WireRecord;
import org.ompprof.sampler.recording.RecordBatch;
import org.ompprof.unwinder.clock.Stage;
import org.ompprof.unwinder.clock.StageClock;

/**
 * The records of a recording's sections, one after another, read as {@link
 * org.ompprof.sampler.recording.Recording#recordBatches} hands them out: taking a section's
 * records (inflating and decoding it, or waiting for the thread that decoded it ahead) counts as
 * decoding; the clock switches once per section, not per record, since a switch reads the time.
 * What counts as decoded is every record of the types the read is for, decoded or skipped (the
 * build's passes together count each record of the recording once).
 */
final class TimedRecords<T extends WireRecord> implements Iterator<T> {
    private final Iterator<RecordBatch> sections;
    private final IntPredicate counted;
    private final StageClock clock;
    private Iterator<WireRecord> current = Collections.emptyIterator();

    /** @param counted the record types this read counts as decoded, whether it decodes them or skips them */
    TimedRecords(Iterator<RecordBatch> sections, IntPredicate counted, StageClock clock) {
        this.sections = sections;
        this.counted = counted;
        this.clock = clock;
    }

    @Override
    public boolean hasNext() {
        while (!current.hasNext()) {
            Stage was = clock.enter(Stage.DECODE);
            try {
                if (!sections.hasNext()) return false;
                RecordBatch batch = sections.next();
                clock.count(Stage.DECODE, batch.count(counted));
                current = batch.records().iterator();
            } finally {
                clock.enter(was);
            }
        }
        return true;
    }

    @Override
    @SuppressWarnings("unchecked") // the section's reader was asked for records of T's type alone
    public T next() {
        if (!hasNext()) throw new NoSuchElementException();
        return (T) current.next();
    }
}
