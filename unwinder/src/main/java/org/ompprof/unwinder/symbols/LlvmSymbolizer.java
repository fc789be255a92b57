package org.ompprof.unwinder.symbols;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One long-lived llvm-symbolizer process in batch mode: {@code "path" 0xaddr} lines in, one
 * JSON answer per line out (inlined frames included, names demangled). Addresses are ELF
 * vaddrs, i.e. relative pcs; {@code --relative-address} is not used because it only applies to
 * COFF image bases.
 *
 * <p>A process that dies is restarted and the batch retried once; one that stops answering for
 * {@code answerTimeout} is killed and treated the same. Thread-safe (calls are serialized).
 */
public final class LlvmSymbolizer implements AutoCloseable {
    public static final List<String> EXECUTABLES = List.of("llvm-symbolizer-19", "llvm-symbolizer");
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    /**
     * Input bytes per round trip. Below the pipe's 64 KiB, and we read every answer before
     * writing more (but those of the few short questions asked ahead), so a write never blocks
     * even if the process hangs.
     */
    private static final int CHUNK_BYTES = 32 * 1024;
    /** Questions asked ahead and not yet answered, at most: their answers are small, so they fit the pipe. */
    private static final int MAX_AHEAD = 8;

    private final Path executable;
    private final List<String> command;
    private final Duration answerTimeout;
    private ToolProcess process;
    /** Questions {@link #askAhead} sent whose answers are still to be read (and dropped), in order. */
    private final ArrayDeque<Question> ahead = new ArrayDeque<>();

    private record Question(String object, long address) {}

    private int restarts;
    private boolean everStarted;
    private boolean closed;

    private LlvmSymbolizer(Path executable, List<String> command, Duration answerTimeout) {
        this.executable = executable;
        this.command = command;
        this.answerTimeout = answerTimeout;
    }

    /** The first of {@link #EXECUTABLES} on PATH. */
    public static Optional<Path> locate() {
        return ExecutableOnPath.first(EXECUTABLES);
    }

    public static LlvmSymbolizer start() throws SymbolizerException {
        Path exe = locate().orElseThrow(() -> new SymbolizerException("neither " + String.join(" nor ", EXECUTABLES)
                + " is on PATH; install LLVM 19 (apt-get install llvm-19) for source lines and inlined frames"));
        return start(exe, DEFAULT_TIMEOUT);
    }

    /** @param answerTimeout how long one answer may take before the process counts as hung */
    public static LlvmSymbolizer start(Path executable, Duration answerTimeout) throws SymbolizerException {
        LlvmSymbolizer s = new LlvmSymbolizer(executable, command(executable), answerTimeout);
        synchronized (s) {
            s.ensureRunning();
        }
        return s;
    }

    /**
     * The flags this version has: JSON output is required, the rest optional. Known from the LLVM version its installed
     * path names, else asked of {@code --help} (a process start, 30 ms of every build).
     */
    private static List<String> command(Path exe) throws SymbolizerException {
        boolean known = namedMajorVersion(exe) >= FLAGS_KNOWN_FROM;
        String help = known ? "" : helpText(exe);
        if (!known && !help.contains("JSON"))
            throw new SymbolizerException(exe + " is too old: it has no --output-style=JSON");
        List<String> cmd = new ArrayList<>(List.of(exe.toString(), "--output-style=JSON", "--inlines", "--demangle"));
        // Never wait on the network for debug info during a profile.
        if (known || help.contains("--no-debuginfod")) cmd.add("--no-debuginfod");
        return List.copyOf(cmd);
    }

    /** The LLVM from which llvm-symbolizer has JSON output and {@code --no-debuginfod} (14 has JSON alone). */
    static final int FLAGS_KNOWN_FROM = 16;

    private static final Pattern VERSIONED = Pattern.compile("llvm(?:-symbolizer)?-(\\d{1,4})");

    /**
     * The LLVM major version an executable's name or installed place says it is (llvm-symbolizer-19, or Debian's
     * /usr/lib/llvm-19/bin/llvm-symbolizer that /usr/bin's links lead to); 0 where neither says.
     */
    static int namedMajorVersion(Path exe) {
        Path real;
        try {
            real = exe.toRealPath();
        } catch (IOException e) {
            real = exe;
        }
        int version = 0;
        for (Path p : List.of(exe, real))
            for (Path part : p) {
                Matcher m = VERSIONED.matcher(part.toString());
                if (m.matches()) version = Math.max(version, Integer.parseInt(m.group(1)));
            }
        return version;
    }

    private static String helpText(Path exe) throws SymbolizerException {
        Path out = null;
        try {
            // Into a file, not a pipe: nothing to drain, and waitFor alone bounds the wait.
            out = Files.createTempFile("ompprof-symbolizer-help", ".txt");
            Process p = new ProcessBuilder(exe.toString(), "--help")
                    .redirectErrorStream(true)
                    .redirectOutput(out.toFile())
                    .start();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new SymbolizerException(exe + " --help did not finish within 10 s");
            }
            return Files.readString(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new SymbolizerException("cannot run " + exe + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SymbolizerException("interrupted while starting " + exe, e);
        } finally {
            deleteQuietly(out);
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            if (p != null) Files.deleteIfExists(p);
        } catch (IOException e) {
            // A stray help text in the temp directory is harmless.
        }
    }

    public Path executable() {
        return executable;
    }

    /** The running process's id, empty between a failure and the next call. */
    public synchronized OptionalLong pid() {
        return process != null && process.isAlive() ? OptionalLong.of(process.pid()) : OptionalLong.empty();
    }

    /** How often the process was replaced after dying or hanging. */
    public synchronized int restarts() {
        return restarts;
    }

    /**
     * One answer per address, in order. {@code object} must not contain a double quote or a
     * line break (the input syntax cannot express them).
     */
    public synchronized List<LlvmAnswer> symbolize(Path object, long[] addresses) throws SymbolizerException {
        if (closed) throw new SymbolizerException("the symbolizer is closed");
        String name = object.toString();
        if (!nameable(name)) {
            throw new SymbolizerException(
                    "llvm-symbolizer cannot be given a path containing quotes or line breaks: " + name);
        }
        List<LlvmAnswer> out = new ArrayList<>(addresses.length);
        int perChunk = Math.max(1, CHUNK_BYTES / (name.getBytes(StandardCharsets.UTF_8).length + 24));
        for (int from = 0; from < addresses.length; from += perChunk) {
            int to = Math.min(addresses.length, from + perChunk);
            out.addAll(chunkWithRetry(name, addresses, from, to));
        }
        return out;
    }

    /**
     * Sends one question and returns without its answer, which is read (and dropped) before the next questions' ones:
     * llvm-symbolizer loads {@code object} (its symbols and debug info: 70 ms for glibc's) while the caller goes on,
     * so that the questions to come about it are answered at once. Does nothing when closed, when {@code object}
     * cannot be written as input, or with {@value #MAX_AHEAD} answers outstanding.
     */
    public synchronized void askAhead(Path object, long address) throws SymbolizerException {
        String name = object.toString();
        if (closed || ahead.size() >= MAX_AHEAD || !nameable(name)) return;
        ensureRunning();
        try {
            process.send(question(name, address));
        } catch (IOException e) {
            throw failed(e.getMessage(), e);
        }
        ahead.addLast(new Question(name, address));
    }

    private List<LlvmAnswer> chunkWithRetry(String name, long[] addresses, int from, int to)
            throws SymbolizerException {
        try {
            return chunk(name, addresses, from, to);
        } catch (SymbolizerException first) {
            try {
                return chunk(name, addresses, from, to);
            } catch (SymbolizerException second) {
                throw new SymbolizerException(
                        second.getMessage() + " (after a restart; first failure: " + first.getMessage() + ")", second);
            }
        }
    }

    /** Whether the input syntax can name this file: it cannot quote a double quote or a line break. */
    private static boolean nameable(String name) {
        return name.indexOf('"') < 0 && name.indexOf('\n') < 0 && name.indexOf('\r') < 0;
    }

    private static String question(String name, long address) {
        return '"' + name + "\" 0x" + Long.toHexString(address) + '\n';
    }

    /** One round trip; on any failure the process is killed, so the next call starts afresh. */
    private List<LlvmAnswer> chunk(String name, long[] addresses, int from, int to) throws SymbolizerException {
        ensureRunning();
        StringBuilder input = new StringBuilder();
        for (int i = from; i < to; i++) input.append(question(name, addresses[i]));
        try {
            dropAnswersAhead();
            process.send(input.toString());
            List<LlvmAnswer> answers = new ArrayList<>(to - from);
            for (int i = from; i < to; i++) answers.add(answer(name, addresses[i]));
            return answers;
        } catch (IOException | IllegalArgumentException e) {
            throw failed(e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failed("interrupted", e);
        }
    }

    private LlvmAnswer answer(String name, long address) throws IOException, InterruptedException, SymbolizerException {
        String line = process.nextLine(answerTimeout);
        if (line == null) {
            throw failed(
                    "no answer for " + name + " 0x" + Long.toHexString(address) + " within " + answerTimeout.toMillis()
                            + " ms" + process.stderrDescription(),
                    null);
        }
        LlvmAnswer a = LlvmAnswer.decode(line);
        // A mismatch means input and output have gone out of step; nothing after it can be trusted.
        if (!a.module().equals(name) || (a.address() != address && !(a.failed() && a.address() == -1))) {
            throw failed(
                    "answer out of step: asked " + name + " 0x" + Long.toHexString(address) + ", got " + line, null);
        }
        return a;
    }

    /** Reads the answers to the questions asked ahead, which nobody waits for, checking that they keep in step. */
    private void dropAnswersAhead() throws IOException, InterruptedException, SymbolizerException {
        while (!ahead.isEmpty()) {
            answer(ahead.getFirst().object(), ahead.getFirst().address());
            ahead.removeFirst();
        }
    }

    private SymbolizerException failed(String why, Throwable cause) {
        if (process != null) process.kill();
        process = null;
        ahead.clear(); // their answers went with the process
        return new SymbolizerException(executable.getFileName() + ": " + why, cause);
    }

    private void ensureRunning() throws SymbolizerException {
        if (process != null && process.isAlive()) return;
        if (process != null) process.kill();
        ahead.clear(); // asked of a process that is gone
        if (everStarted) restarts++;
        try {
            process = ToolProcess.start(command);
            everStarted = true;
        } catch (IOException e) {
            throw new SymbolizerException("cannot start " + executable + ": " + e.getMessage(), e);
        }
    }

    /** Tells llvm-symbolizer to exit, without waiting for it (it frees what it read: up to 50 ms). */
    @Override
    public synchronized void close() {
        closed = true;
        if (process != null) process.release(Duration.ofSeconds(2));
        process = null;
    }
}
