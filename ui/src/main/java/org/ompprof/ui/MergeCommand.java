package org.ompprof.ui;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.ompprof.sampler.UserError;
import org.ompprof.ui.pipeline.ProfileMerge;

/** {@code ompprof merge -o OUT FILE...}: the profiles of many runs or processes as one. */
final class MergeCommand {
    static final String USAGE = """
        usage: ompprof merge -o OUT FILE...
          merges profiles (runs of a program, its MPI ranks, ...) into one: calling contexts
          merged by path with their values added; every input's threads kept apart (thread t
          of an input is numbered t plus the thread numbers used by the inputs before it);
          timelines, region and mutex rows kept per thread; the metadata of each run kept as
          input.N.* (see ompprof info). Inputs are read one at a time. Merging merged
          profiles gives the same result as merging their runs at once.
        """;

    private MergeCommand() {}

    static int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        if (args.contains("--help") || args.contains("-h")) {
            out.print(USAGE);
            return 0;
        }
        Path output = null;
        List<Path> inputs = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-o") || a.equals("--output")) {
                if (++i >= args.size()) throw new UserError("merge: " + a + " needs a file name");
                output = Path.of(args.get(i));
            } else if (a.startsWith("-")) {
                throw new UserError("merge: unknown option " + a + "; see ompprof merge --help");
            } else {
                inputs.add(Path.of(a));
            }
        }
        if (output == null) throw new UserError("merge: give the output file with -o OUT; see ompprof merge --help");
        if (inputs.isEmpty()) throw new UserError("merge: give at least one profile to merge; see ompprof merge --help");
        for (Path in : inputs) {
            if (Files.isDirectory(in)) throw new UserError("merge: " + in + " is a directory, not a profile");
        }
        ProfileMerge.Result r = ProfileMerge.merge(inputs, output);
        err.printf("ompprof: merged %d profiles into %s (%,d samples, %,d contexts, %d threads, %,d bytes)%n",
                r.inputs(), output, r.samples(), r.contexts(), r.threads(), r.bytes());
        return 0;
    }
}
