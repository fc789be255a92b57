package org.ompprof.unwinder.symbols;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A private temporary directory (mode 700) for images llvm-symbolizer must read from a file:
 * ones embedded in a recording, and links to files whose paths it cannot be given. Everything
 * is deleted on close.
 */
final class ScratchFiles implements AutoCloseable {
    private final AtomicInteger counter = new AtomicInteger();
    private final List<Path> created = new ArrayList<>();
    private Path dir;

    /** Writes {@code bytes} to a new file named after {@code label} (sanitized); returns its path. */
    synchronized Path write(byte[] bytes, String label) throws IOException {
        Path p = directory().resolve(fileName(label));
        Files.write(p, bytes);
        created.add(p);
        return p;
    }

    /** A symbolic link to {@code target} under a plain name. */
    synchronized Path link(Path target, String label) throws IOException {
        Path p = directory().resolve(fileName(label));
        Files.createSymbolicLink(p, target.toAbsolutePath());
        created.add(p);
        return p;
    }

    private String fileName(String label) {
        String safe = label.replaceAll("[^A-Za-z0-9._+-]", "_");
        if (safe.length() > 80) safe = safe.substring(0, 80);
        return counter.incrementAndGet() + "-" + safe;
    }

    private Path directory() throws IOException {
        if (dir == null) {
            dir = Files.createTempDirectory(
                    "ompprof-symbols-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        return dir;
    }

    synchronized Path directoryOrNull() {
        return dir;
    }

    @Override
    public synchronized void close() {
        for (Path p : created) deleteQuietly(p);
        created.clear();
        if (dir != null) deleteQuietly(dir);
        dir = null;
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // Left behind in the temp directory; nothing else depends on it.
        }
    }
}
