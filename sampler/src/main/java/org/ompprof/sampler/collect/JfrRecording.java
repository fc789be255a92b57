package org.ompprof.sampler.collect;

import jdk.jfr.FlightRecorder;

/**
 * Whether JFR records in this JVM ({@code --self-profile}, or {@code -XX:StartFlightRecording}). ompprof's own event
 * classes are touched only then: loading one registers it with JFR, which instruments it through the classfile API
 * and has C1 compile all of that (50-150 ms of CPU), on a command the user waits for: at start-up, on the program's
 * cores while it runs, or when its profile's build begins.
 */
public final class JfrRecording {
    private JfrRecording() {}

    public static boolean active() {
        return FlightRecorder.isInitialized();
    }
}
