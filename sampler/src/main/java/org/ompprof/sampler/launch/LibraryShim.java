package org.ompprof.sampler.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * A private directory of symbolic links put first in the program's LD_LIBRARY_PATH, so that
 * names the program's libraries ask for find the runtime ompprof profiles. Each link is a name
 * the program loads nothing by otherwise, so the program's own libraries stay the same.
 *
 * <ul>
 *   <li>{@code libgomp.so.1 -> libomp}: GCC-built OpenMP programs link libgomp, which has no
 *       OMPT; libomp implements libgomp's entry points, so they run on libomp instead.
 *   <li>{@code libomp.so -> the program's libomp}: libomptarget connects to the host runtime's
 *       OMPT by loading {@code libomp.so} by that bare name, which Debian's linker cache does not
 *       hold (only {@code libomp.so.5}); without it the device callbacks never start. The link
 *       names the very file the program already runs on, so the loader hands back that library.
 * </ul>
 *
 * @param links the name each link has, and the file it points to
 */
record LibraryShim(Map<String, Path> links) {
    static final String LIBGOMP = "libgomp.so.1";
    static final String LIBOMP = "libomp.so";
    static final String LIBOMP_SONAME_PREFIX = "libomp.so.";
    static final String LIBOMPTARGET_PREFIX = "libomptarget.so";

    LibraryShim {
        links = Map.copyOf(links);
    }

    /**
     * The links a program needs: libgomp's when it loads libgomp ({@code libomp} is then the one
     * to run it on, asked only then), libomp's when it loads libomptarget next to a libomp the loader found.
     */
    static LibraryShim plan(LoadedLibraries libraries, Supplier<Path> libomp) {
        Map<String, Path> links = new LinkedHashMap<>();
        if (libraries.loads(LIBGOMP)) links.put(LIBGOMP, libomp.get());
        Optional<Path> runtime = libraries.first(LIBOMP_SONAME_PREFIX);
        if (libraries.first(LIBOMPTARGET_PREFIX).isPresent() && runtime.isPresent()) links.put(LIBOMP, runtime.get());
        return new LibraryShim(links);
    }

    boolean isEmpty() {
        return links.isEmpty();
    }

    boolean runsGccProgramOnLibomp() {
        return links.containsKey(LIBGOMP);
    }

    /** The libomp made findable for libomptarget, if any. */
    Optional<Path> offloadRuntime() {
        return Optional.ofNullable(links.get(LIBOMP));
    }

    /** Makes the directory; the caller deletes it when the program has ended. */
    Path create() throws IOException {
        Path dir = Files.createTempDirectory("ompprof-libs-");
        for (Map.Entry<String, Path> link : links.entrySet())
            Files.createSymbolicLink(dir.resolve(link.getKey()), link.getValue());
        return dir;
    }

    /** LD_LIBRARY_PATH with the directory first. */
    static String libraryPath(Path dir, String existing) {
        return existing == null || existing.isEmpty() ? dir.toString() : dir + ":" + existing;
    }

    static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a leftover symlink in /tmp is harmless
        }
    }
}
