package org.ompprof.unwinder.symbols;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The LLVM tools ompprof runs, found the way a shell finds them: the first of several names on PATH. */
public final class ExecutableOnPath {
    private ExecutableOnPath() {}

    /** The first of {@code names} that is an executable file in a directory of PATH, trying each name in turn. */
    public static Optional<Path> first(List<String> names) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (String name : names) {
            for (String dir : path.split(":")) {
                Path p = Path.of(dir.isEmpty() ? "." : dir, name);
                if (Files.isRegularFile(p) && Files.isExecutable(p)) return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
