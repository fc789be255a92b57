package org.ompprof.calltree.build;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.ompprof.unwinder.symbols.ExecutableOnPath;

/**
 * C++ (Itanium) names demangled by llvm-cxxfilt, all of a profile's at once: one process, the
 * names through its stdin, one answer per line back. Names from debug info come demangled from
 * llvm-symbolizer already; this is for the rest (symbol tables: libstdc++ and other libraries
 * without debug info). Never fails: without llvm-cxxfilt, or when it misbehaves, names stay as
 * they were and {@link #problem()} says why.
 */
final class Demangler {
    static final List<String> EXECUTABLES = List.of("llvm-cxxfilt-19", "llvm-cxxfilt");
    private static final long TIMEOUT_SECONDS = 60;

    private final Path executable;
    private String problem;

    private Demangler(Path executable, String problem) {
        this.executable = executable;
        this.problem = problem;
    }

    /** With the first of {@link #EXECUTABLES} on PATH (or none: names stay mangled). */
    static Demangler create() {
        Optional<Path> exe = locate();
        return exe.map(p -> new Demangler(p, null))
                .orElseGet(() -> new Demangler(
                        null,
                        "C++ names stay mangled: neither " + String.join(" nor ", EXECUTABLES)
                                + " is on PATH; install LLVM 19 (apt-get install llvm-19)"));
    }

    static Optional<Path> locate() {
        return ExecutableOnPath.first(EXECUTABLES);
    }

    /** Why names were left as they were; null when all went well. */
    String problem() {
        return problem;
    }

    /**
     * The demangled form of each Itanium name of {@code symbols} that llvm-cxxfilt could demangle
     * (other names, and names it gives back unchanged, are left out).
     */
    Map<String, String> demangle(Collection<String> symbols) {
        List<String> names =
                symbols.stream().filter(DisplayNames::itanium).distinct().toList();
        Map<String, String> out = new LinkedHashMap<>();
        if (names.isEmpty() || executable == null) return out;
        List<String> answers;
        try {
            answers = run(names);
        } catch (IOException e) {
            problem = "C++ names stay mangled: " + executable + ": " + e.getMessage();
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return out;
        }
        if (answers.size() != names.size()) {
            problem = "C++ names stay mangled: " + executable + " answered " + answers.size() + " lines for "
                    + names.size() + " names";
            return out;
        }
        for (int i = 0; i < names.size(); i++) {
            String a = answers.get(i).strip();
            if (!a.isEmpty() && !a.equals(names.get(i))) out.put(names.get(i), a);
        }
        return out;
    }

    private List<String> run(List<String> names) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(executable.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        List<String> answers = new ArrayList<>(names.size());
        // write from a thread of its own: a large batch must not deadlock against a full stdout pipe
        Thread writer = Thread.ofPlatform().daemon().name("cxxfilt-stdin").start(() -> {
            try (Writer w = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8)) {
                for (String n : names) w.write(n + "\n");
            } catch (IOException e) {
                // it died: the short answer says so
            }
        });
        // a hung llvm-cxxfilt is killed: its answers then come up short, and the names stay as they were
        Thread.ofPlatform().daemon().name("cxxfilt-watchdog").start(() -> {
            try {
                if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) p.destroyForcibly();
            } catch (InterruptedException e) {
                p.destroyForcibly();
            }
        });
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) answers.add(line);
        } finally {
            writer.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) p.destroyForcibly();
        }
        if (p.exitValue() != 0) throw new IOException("exited with status " + p.exitValue());
        return answers;
    }
}
