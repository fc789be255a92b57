package org.ompprof.sampler.launch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The shared libraries a program loads at start, by the name it asks for and the file the dynamic
 * loader resolves it to, with the program's own environment. Asked the way ldd does
 * (LD_TRACE_LOADED_OBJECTS=1 lists them instead of running the program), and only of ELF files
 * with an interpreter, which honour that variable: a script or a static program would just run.
 */
record LoadedLibraries(Map<String, Path> resolved) {
    static final long TRACE_TIMEOUT_S = 10;
    static final LoadedLibraries NONE = new LoadedLibraries(Map.of());

    LoadedLibraries {
        resolved = Map.copyOf(resolved);
    }

    static LoadedLibraries of(Path program, Map<String, String> env) throws InterruptedException {
        if (!DynamicElf.hasInterpreter(program)) return NONE;
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
            return NONE; // the real start will report it
        }
        CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
        if (!p.waitFor(TRACE_TIMEOUT_S, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return NONE;
        }
        return parse(output.join());
    }

    /**
     * The loader's listing, one library a line: {@code \tNAME => PATH (0xADDRESS)}; a name that
     * was not found reads {@code NAME => not found} and is kept without a file. Lines of any
     * other shape (the vDSO, the interpreter) are not libraries asked for by name.
     */
    static LoadedLibraries parse(String listing) {
        Map<String, Path> found = new LinkedHashMap<>();
        for (String line : listing.split("\n")) {
            int arrow = line.indexOf(" => ");
            if (arrow <= 0) continue;
            String name = line.substring(0, arrow).strip();
            String target = line.substring(arrow + 4).strip();
            int address = target.lastIndexOf(" (0x");
            if (address >= 0) target = target.substring(0, address);
            if (name.isEmpty() || name.contains(" ") || target.indexOf('\0') >= 0) continue;
            if (target.startsWith("/") && !found.containsKey(name)) found.put(name, Path.of(target));
        }
        return new LoadedLibraries(found);
    }

    boolean loads(String name) {
        return resolved.containsKey(name);
    }

    /** The file of the first library whose name starts with {@code prefix} ("libomp.so." for any libomp soname). */
    Optional<Path> first(String prefix) {
        return resolved.entrySet().stream()
                .filter(e -> e.getKey().startsWith(prefix))
                .map(Map.Entry::getValue)
                .findFirst();
    }

    private static String readAll(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
