package org.ompprof.ui;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.ompprof.calltree.merge.ProfileMerge;
import org.ompprof.sampler.UserError;
import org.ompprof.sampler.launch.DurationArg;

/** {@code ompprof merge -o OUT FILE...}: the profiles of many runs or processes as one. */
final class MergeCommand {
    static final String USAGE = """
        usage: ompprof merge [--timeline-resolution DURATION] [--self-profile FILE.jfr] -o OUT FILE...
          (-o - writes the merged profile to standard output)
          merges profiles (runs of a program, its MPI ranks, ...) into one: calling contexts
          merged by path with their values added; every input's threads kept apart (thread t
          of an input is numbered t plus the thread numbers used by the inputs before it);
          timelines, region, mutex and device rows kept per thread; the metadata of each run
          kept as input.N.* (see ompprof info). Inputs are read one at a time. Merging merged
          profiles gives the same result as merging their runs at once.

          --timeline-resolution DURATION   keep one timeline entry per thread per DURATION
              (10ms, 1s) in OUT; with a single input, this is how a long run's profile is
              made smaller and lighter to view. The calling-context tree is not changed.
          --self-profile FILE.jfr   record what ompprof itself costs (JFR) into FILE.jfr
        """;

    private MergeCommand() {}

    static int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        if (args.contains("--help") || args.contains("-h")) {
            out.print(USAGE);
            return 0;
        }
        List<String> rest = new java.util.ArrayList<>(args);
        long resolutionNs = 0;
        int at = rest.indexOf("--timeline-resolution");
        if (at >= 0) {
            if (at + 1 >= rest.size())
                throw new UserError("merge: --timeline-resolution needs a duration such as 10ms");
            resolutionNs = DurationArg.parseNs("merge", "--timeline-resolution", rest.get(at + 1));
            rest.subList(at, at + 2).clear();
        }
        String selfProfile = null;
        at = rest.indexOf(SelfProfile.OPTION);
        if (at >= 0) {
            if (at + 1 >= rest.size())
                throw new UserError("merge: " + SelfProfile.OPTION + " needs a file name such as self.jfr");
            selfProfile = rest.get(at + 1);
            rest.subList(at, at + 2).clear();
        }
        FileArgs files = FileArgs.parse("merge", rest);
        Path output = files.output();
        List<Path> inputs = files.inputs();
        if (output == null) throw new UserError("merge: give the output file with -o OUT; see ompprof merge --help");
        if (inputs.isEmpty())
            throw new UserError("merge: give at least one profile to merge; see ompprof merge --help");
        for (Path in : inputs) {
            if (Files.isDirectory(in)) throw new UserError("merge: " + in + " is a directory, not a profile");
        }
        final long resolution = resolutionNs;
        ProfileMerge.Result r;
        try (SelfProfile self = SelfProfile.start("merge", selfProfile, err)) {
            r = StandardOutput.means(output)
                    ? StandardOutput.through(file -> ProfileMerge.merge(inputs, file, resolution), out)
                    : ProfileMerge.merge(inputs, output, resolution);
        }
        err.printf(
                "ompprof: merged %d profiles into %s (%,d samples, %,d contexts, %d threads, %,d bytes)%n",
                r.inputs(),
                StandardOutput.means(output) ? "standard output" : output,
                r.samples(),
                r.contexts(),
                r.threads(),
                r.bytes());
        return 0;
    }
}
