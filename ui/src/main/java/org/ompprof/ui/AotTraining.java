package org.ompprof.ui;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The launcher trains JDK 25's ahead-of-time cache on the first {@code record}, {@code view}, {@code info},
 * {@code report} or {@code export} after a build,
 * and keeps the cache only if that run did the command's real work: a first {@code record --help}, or a
 * program that was not found, would otherwise fix for good a cache without the classes every later run loads
 * (it held 5 of ompprof's classes instead of 344, and the JVM took 0.2 s longer to start the program).
 */
public final class AotTraining {
    /** Set by the launcher on a training run only: the file this run creates once its work is done. */
    static final String PROPERTY = "ompprof.aot.trained";

    private AotTraining() {}

    /** Marks a training run as one worth keeping; does nothing on any other run. */
    public static void workDone() {
        String marker = System.getProperty(PROPERTY);
        if (marker == null || marker.isEmpty()) return;
        try {
            Files.writeString(Path.of(marker), "");
        } catch (IOException e) {
            // no cache this time: the next run trains again
        }
    }
}
