package org.ompprof.unwinder.stitch;

import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.ompprof.unwinder.clock.Stage;
import org.ompprof.unwinder.clock.StageClock;

/**
 * One thread's samples, stitched a record section at a time where the section was decoded (ahead,
 * on a build thread, or here when it is reached): taking a section's samples counts as decoding,
 * as it does for records; stitching on the clock's own thread counts as stitching where it runs.
 */
final class StitchedSections implements Iterator<StitchedSample> {
    private final Iterator<List<StitchedSample>> sections;
    private final StageClock clock;
    private Iterator<StitchedSample> current = Collections.emptyIterator();

    StitchedSections(Iterator<List<StitchedSample>> sections, StageClock clock) {
        this.sections = sections;
        this.clock = clock;
    }

    @Override
    public boolean hasNext() {
        while (!current.hasNext()) {
            Stage was = clock.enter(Stage.DECODE);
            try {
                if (!sections.hasNext()) return false;
                current = sections.next().iterator();
            } finally {
                clock.enter(was);
            }
        }
        return true;
    }

    @Override
    public StitchedSample next() {
        if (!hasNext()) throw new NoSuchElementException();
        return current.next();
    }
}
