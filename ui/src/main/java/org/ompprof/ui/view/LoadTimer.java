package org.ompprof.ui.view;

import java.util.function.Supplier;
import org.ompprof.sampler.collect.JfrRecording;

/** A background load, timed as a JFR event ({@link BackgroundLoadEvent}) only while JFR records (see JfrRecording). */
final class LoadTimer {
    private LoadTimer() {}

    static <T> T timed(String what, Supplier<T> work) {
        return JfrRecording.active() ? BackgroundLoadEvent.timed(what, work) : work.get();
    }
}
