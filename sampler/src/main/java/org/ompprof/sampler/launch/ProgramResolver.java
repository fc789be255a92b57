package org.ompprof.sampler.launch;

import java.nio.file.Files;
import java.nio.file.Path;
import org.ompprof.sampler.UserError;

/** Finds the program to run the way a shell does: a name with a slash is a path, else PATH is searched. */
final class ProgramResolver {
    private ProgramResolver() {}

    /** The absolute path of an executable file; a {@link UserError} says what is wrong otherwise. */
    static Path resolve(String program, String pathVariable, Path cwd) {
        if (program.contains("/")) {
            Path p = cwd.resolve(program).normalize();
            if (!Files.exists(p)) throw new UserError("program not found: " + program);
            requireExecutable(p, program);
            return p;
        }
        Path notExecutable = null;
        for (String dir : (pathVariable == null ? "" : pathVariable).split(":", -1)) {
            Path candidate =
                    cwd.resolve(dir.isEmpty() ? "." : dir).resolve(program).normalize();
            if (!Files.isRegularFile(candidate)) continue;
            if (Files.isExecutable(candidate)) return candidate;
            if (notExecutable == null) notExecutable = candidate;
        }
        if (notExecutable != null) throw new UserError("not executable: " + notExecutable + " (chmod +x?)");
        throw new UserError("program not found: " + program);
    }

    private static void requireExecutable(Path p, String shown) {
        if (Files.isDirectory(p)) throw new UserError("not executable: " + shown + " (it is a directory)");
        if (!Files.isExecutable(p)) throw new UserError("not executable: " + shown + " (chmod +x?)");
    }
}
