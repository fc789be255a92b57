package org.ompprof.ui;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.ompprof.sampler.UserError;

/**
 * The arguments of a command that reads profiles and writes one: {@code [-o OUT] FILE...}.
 *
 * @param output null when not given
 */
record FileArgs(Path output, List<Path> inputs) {
    static FileArgs parse(String verb, List<String> args) {
        Path output = null;
        List<Path> inputs = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-o") || a.equals("--output")) {
                if (++i >= args.size()) throw new UserError(verb + ": " + a + " needs a file name");
                output = Path.of(args.get(i));
            } else if (a.startsWith("-")) {
                throw new UserError(verb + ": unknown option " + a + "; see ompprof " + verb + " --help");
            } else {
                inputs.add(Path.of(a));
            }
        }
        return new FileArgs(output, List.copyOf(inputs));
    }
}
