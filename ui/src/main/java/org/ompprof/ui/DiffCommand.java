package org.ompprof.ui;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.ompprof.calltree.merge.ProfileDiffer;
import org.ompprof.sampler.UserError;

/** {@code ompprof diff [-o OUT] A B}: what changed from profile A (the base) to B. */
final class DiffCommand {
    static final String USAGE = """
        usage: ompprof diff [-o OUT] A B
          a differential profile of B against the base A (default OUT: B-minus-A.ompprof;
          -o - writes it to standard output):
          B's profile, whose every calling context also holds A's values (metrics a.NAME) and
          B minus A (delta.NAME), thread by thread number. Then:
            ompprof export --format html -o diff.html OUT      flame graph of B colored by change
            ompprof export --format collapsed --metric delta.time OUT   signed changes per path
        """;

    private DiffCommand() {}

    static int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        if (args.contains("--help") || args.contains("-h")) {
            out.print(USAGE);
            return 0;
        }
        FileArgs files = FileArgs.parse("diff", args);
        Path output = files.output();
        List<Path> inputs = files.inputs();
        if (inputs.size() != 2)
            throw new UserError("diff: give two profiles, the base A and the new B; see ompprof diff --help");
        for (Path in : inputs) {
            if (Files.isDirectory(in)) throw new UserError("diff: " + in + " is a directory, not a profile");
        }
        if (output == null) output = Path.of(stem(inputs.get(1)) + "-minus-" + stem(inputs.get(0)) + ".ompprof");
        ProfileDiffer.Result r = StandardOutput.means(output)
                ? StandardOutput.through(file -> ProfileDiffer.diff(inputs.get(0), inputs.get(1), file), out)
                : ProfileDiffer.diff(inputs.get(0), inputs.get(1), output);
        err.printf(
                "ompprof: wrote %s (%,d contexts, %,d bytes)%n",
                StandardOutput.means(output) ? "standard output" : output, r.contexts(), r.bytes());
        return 0;
    }

    private static String stem(Path p) {
        String name = p.getFileName().toString();
        return name.endsWith(".ompprof") ? name.substring(0, name.length() - ".ompprof".length()) : name;
    }
}
