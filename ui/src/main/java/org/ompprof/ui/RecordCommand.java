package org.ompprof.ui;

import java.io.PrintStream;
import java.util.List;

import org.ompprof.sampler.launch.RecordOptions;
import org.ompprof.sampler.launch.Recorder;

/** {@code ompprof record [OPTIONS] -- PROGRAM ARGS...}: runs the program and writes a recording. */
public final class RecordCommand {
    private RecordCommand() {}

    /** Returns the program's exit status; throws {@code UserError} for what the user must fix. */
    public static int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        RecordOptions options = RecordOptions.parse(args);
        if (options.help()) {
            out.print(RecordOptions.USAGE);
            return 0;
        }
        return new Recorder(Recorder.Context.system(Version.get(), out, err)).record(options);
    }
}
