package org.ompprof.sampler.ring;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Shared-memory files left by recordings whose JVM was killed before the agent mapped the
 * region (a mapped one is unlinked at once). A region is named for the JVM that made it, so
 * one whose JVM is gone is nobody's: it is removed when the next recording starts. A live
 * JVM's region is never touched (a reused pid only delays the cleaning).
 */
public final class StaleRegions {
    private static final Pattern NAME = Pattern.compile("ompprof-(\\d+)-[0-9a-f]+");

    private StaleRegions() {}

    /** Removes the stale regions in {@code dir} that this user may remove; returns what was removed. */
    public static List<Path> clean(Path dir) {
        List<Path> removed = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "ompprof-*")) {
            for (Path f : files) {
                Matcher m = NAME.matcher(f.getFileName().toString());
                if (!m.matches() || jvmAlive(m.group(1))) continue;
                try {
                    if (Files.isRegularFile(f) && Files.isWritable(f) && Files.deleteIfExists(f)) removed.add(f);
                } catch (IOException notOurs) {
                    // another user's, or already gone: leave it
                }
            }
        } catch (IOException | SecurityException e) {
            // an unreadable directory only means nothing is cleaned
        }
        return removed;
    }

    private static boolean jvmAlive(String pid) {
        try {
            return ProcessHandle.of(Long.parseLong(pid))
                    .map(ProcessHandle::isAlive)
                    .orElse(false);
        } catch (NumberFormatException tooLong) {
            return true; // not a name this code made: leave it
        }
    }
}
