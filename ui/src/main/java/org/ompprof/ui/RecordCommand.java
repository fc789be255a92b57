package org.ompprof.ui;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.ompprof.calltree.build.ProfileBuilder;
import org.ompprof.sampler.collect.DrainWarmup;
import org.ompprof.sampler.launch.RecordOptions;
import org.ompprof.sampler.launch.Recorder;
import org.ompprof.sampler.recording.Recording;

/** {@code ompprof record [OPTIONS] -- PROGRAM ARGS...}: runs the program and writes its profile. */
public final class RecordCommand {
    private RecordCommand() {}

    /** Returns the program's exit status; throws {@code UserError} for what the user must fix. */
    public static int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        RecordOptions options = RecordOptions.parse(args);
        if (options.help()) {
            out.print(RecordOptions.USAGE);
            return 0;
        }
        try (SelfProfile self =
                SelfProfile.start("record", options.selfProfile().orElse(null), err)) {
            DrainWarmup warmup = DrainWarmup.start(); // first, to overlap what follows
            return new Recorder(
                            Recorder.Context.system(Version.get(), out, err),
                            (raw, output) -> profile(raw, output, options.timelineResolutionNs()))
                    .record(options, warmup);
        }
    }

    /** The raw recording becomes the profile: unwound, stitched, symbolized, in a tree with timelines. */
    static long profile(Path raw, Path output, long timelineResolutionNs) throws IOException {
        try (Recording r = Recording.open(raw)) {
            long bytes = ProfileBuilder.buildInto(output, r, timelineResolutionNs);
            if (!r.threads().isEmpty()) AotTraining.workDone(); // a recording of an OpenMP program, built
            return bytes;
        }
    }
}
