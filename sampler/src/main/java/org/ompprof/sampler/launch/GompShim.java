package org.ompprof.sampler.launch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * GCC-built OpenMP programs link libgomp, which has no OMPT. libomp implements libgomp's entry
 * points, so such a program runs on libomp when a directory with a {@code libgomp.so.1} symlink
 * to libomp comes first in LD_LIBRARY_PATH.
 */
final class GompShim {
    static final String LIBGOMP = "libgomp.so.1";
    static final long TRACE_TIMEOUT_S = 10;

    private GompShim() {}

    /**
     * Whether the dynamic loader would load libgomp for {@code program}: asks it the way ldd
     * does (LD_TRACE_LOADED_OBJECTS=1 lists the resolved libraries instead of running the
     * program), only for ELF files with an interpreter, which honour that variable.
     */
    static boolean needsLibgomp(Path program, Map<String, String> env) throws InterruptedException {
        if (!DynamicElf.hasInterpreter(program)) return false;
        ProcessBuilder pb = new ProcessBuilder(program.toString())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().clear();
        pb.environment().putAll(env);
        pb.environment().put("LD_TRACE_LOADED_OBJECTS", "1");
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            return false; // the real start will report it
        }
        CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
        if (!p.waitFor(TRACE_TIMEOUT_S, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return false;
        }
        return output.join().contains(LIBGOMP);
    }

    private static String readAll(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** A private directory holding {@code libgomp.so.1 -> libomp}. */
    static Path create(Path libomp) throws IOException {
        Path dir = Files.createTempDirectory("ompprof-gomp-");
        Files.createSymbolicLink(dir.resolve(LIBGOMP), libomp);
        return dir;
    }

    /** LD_LIBRARY_PATH with the shim first. */
    static String libraryPath(Path shim, String existing) {
        return existing == null || existing.isEmpty() ? shim.toString() : shim + ":" + existing;
    }

    static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a leftover symlink in /tmp is harmless
        }
    }
}
