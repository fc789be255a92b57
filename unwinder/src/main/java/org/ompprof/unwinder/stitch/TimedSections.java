package org.ompprof.unwinder.stitch;

import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.Function;
import org.ompprof.unwinder.clock.Stage;
import org.ompprof.unwinder.clock.StageClock;

/**
 * The items of a recording's record sections, one section after another, as the sections are handed out (by {@link
 * org.ompprof.sampler.recording.Recording#recordBatches} and its kin): taking a section (inflating and decoding it,
 * with whatever is done to its records where it is decoded, or waiting for the thread that did that ahead) counts as
 * decoding; the clock switches once per section, not per item, since a switch reads the time.
 */
final class TimedSections<S, T> implements Iterator<T> {
    private final Iterator<S> sections;
    private final Function<S, Iterator<? extends T>> items;
    private final StageClock clock;
    private Iterator<? extends T> current = Collections.emptyIterator();

    /** @param items a section's items, called as the section is taken (counting its records there, if it does) */
    TimedSections(Iterator<S> sections, Function<S, Iterator<? extends T>> items, StageClock clock) {
        this.sections = sections;
        this.items = items;
        this.clock = clock;
    }

    @Override
    public boolean hasNext() {
        while (!current.hasNext()) {
            Stage was = clock.enter(Stage.DECODE);
            try {
                if (!sections.hasNext()) return false;
                current = items.apply(sections.next());
            } finally {
                clock.enter(was);
            }
        }
        return true;
    }

    @Override
    public T next() {
        if (!hasNext()) throw new NoSuchElementException();
        return current.next();
    }
}
