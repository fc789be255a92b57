package org.ompprof.ui.view;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Finds a source file named by debug info: where the debug info says, else under each search
 * directory by its relative path, else by its bare name (sources moved since the build).
 */
final class SourceFinder {
    private final List<Path> searchPath;

    SourceFinder(List<Path> searchPath) {
        this.searchPath = List.copyOf(searchPath);
    }

    List<Path> searchPath() {
        return searchPath;
    }

    Optional<Path> find(String file) {
        if (file == null || file.isEmpty()) return Optional.empty();
        try {
            Path p = Path.of(file);
            if (p.isAbsolute() && Files.isRegularFile(p)) return Optional.of(p);
            for (Path dir : searchPath) {
                if (!p.isAbsolute() && Files.isRegularFile(dir.resolve(p))) return Optional.of(dir.resolve(p));
                Path byName = dir.resolve(p.getFileName());
                if (Files.isRegularFile(byName)) return Optional.of(byName);
            }
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** A search path from a colon-separated list. */
    static List<Path> parse(String dirs) {
        return java.util.Arrays.stream(dirs.split(":"))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .map(Path::of)
                .toList();
    }
}
