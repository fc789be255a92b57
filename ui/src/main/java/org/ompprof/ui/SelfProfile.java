package org.ompprof.ui;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.List;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.ompprof.sampler.UserError;
import org.ompprof.sampler.launch.OutputTarget;

/**
 * {@code --self-profile FILE.jfr}: what ompprof itself does, recorded with JDK Flight Recorder:
 * the JDK's "profile" settings (CPU samples, GC, allocation, I/O, ...) and every {@code ompprof.*}
 * event (ring drains, spool writes, drops, the profile build's stages, symbolizer calls, the
 * viewer's loads), written to a standard {@code .jfr} file when the command ends, however it
 * ends ({@code jfr summary}, {@code jfr print}, JDK Mission Control).
 */
public final class SelfProfile implements AutoCloseable {
    public static final String OPTION = "--self-profile";
    /** Every ompprof event, enabled by name (their classes are private to the modules that emit them). */
    static final List<String> EVENTS = List.of(
            "ompprof.RingDrain",
            "ompprof.SpoolWrite",
            "ompprof.RecordsDropped",
            "ompprof.SymbolizerCall",
            "ompprof.BuildStage",
            "ompprof.ProfileBuild",
            "ompprof.ViewerLoad");

    private final Recording recording;
    private final OutputTarget file;
    private final PrintStream err;

    private SelfProfile(Recording recording, OutputTarget file, PrintStream err) {
        this.recording = recording;
        this.file = file;
        this.err = err;
    }

    /** No self-profile: closing it does nothing. */
    static SelfProfile none() {
        return new SelfProfile(null, null, null);
    }

    /**
     * Starts recording if {@code file} is given (else {@link #none()}); a path that cannot be
     * written is the user's error, found before any work is done.
     */
    public static SelfProfile start(String verb, String file, PrintStream err) {
        if (file == null) return none();
        OutputTarget target;
        try {
            target = OutputTarget.of(file, Path.of("").toAbsolutePath());
        } catch (UserError e) {
            throw new UserError(verb + ": " + OPTION + ": " + e.getMessage() + "; give a writable FILE.jfr");
        }
        if (Files.exists(target.path()) && !Files.isWritable(target.path())) {
            throw new UserError(verb + ": " + OPTION + ": cannot overwrite " + file + "; give a writable FILE.jfr");
        }
        Recording r;
        try {
            r = new Recording(Configuration.getConfiguration("profile"));
        } catch (IOException | ParseException e) {
            throw new IllegalStateException(
                    "the JDK's JFR configuration 'profile' cannot be read: " + e.getMessage(), e);
        }
        r.setName("ompprof " + verb);
        r.setToDisk(true);
        for (String event : EVENTS) r.enable(event).withoutThreshold();
        r.start();
        return new SelfProfile(r, target, err);
    }

    /** Stops recording and writes the file. */
    @Override
    public void close() throws IOException {
        if (recording == null) return;
        try {
            recording.stop();
            recording.dump(file.path());
        } finally {
            recording.close();
        }
        err.println("ompprof: wrote the self-profile " + file.shown() + " (jfr summary " + file.shown()
                + "; jfr print --events ompprof.BuildStage " + file.shown() + ")");
    }
}
