package org.ompprof.unwinder.stitch;

import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.ompprof.sampler.record.WireRecord;
import org.ompprof.unwinder.clock.Stage;
import org.ompprof.unwinder.clock.StageClock;

/**
 * The records of a recording's sections, one after another, read as {@link
 * org.ompprof.sampler.recording.Recording#recordBatches} hands them out: taking a section's
 * records (inflating and decoding it, or waiting for the thread that decoded it ahead) counts as
 * decoding; the clock switches once per section, not per record, since a switch reads the time.
 */
final class TimedRecords<T extends WireRecord> implements Iterator<T> {
    private final Iterator<List<WireRecord>> sections;
    private final StageClock clock;
    private Iterator<WireRecord> current = Collections.emptyIterator();

    TimedRecords(Iterator<List<WireRecord>> sections, StageClock clock) {
        this.sections = sections;
        this.clock = clock;
    }

    @Override
    public boolean hasNext() {
        while (!current.hasNext()) {
            Stage was = clock.enter(Stage.DECODE);
            try {
                if (!sections.hasNext()) return false;
                List<WireRecord> records = sections.next();
                clock.count(Stage.DECODE, records.size());
                current = records.iterator();
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
