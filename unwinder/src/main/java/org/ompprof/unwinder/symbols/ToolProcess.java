package org.ompprof.unwinder.symbols;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A child process spoken to in lines. Its stdout is drained by a thread of its own into a
 * queue, so a large batch can never deadlock us against a full pipe, and every read has a
 * timeout, so a hung child can never block the caller forever. Its stderr is kept (the tail)
 * for error messages.
 */
final class ToolProcess implements AutoCloseable {
    /** Marks the end of stdout in the queue. */
    private static final String EOF = new String("<eof>");

    private static final int STDERR_TAIL = 2000;

    private final Process process;
    private final Writer stdin;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final StringBuilder stderrTail = new StringBuilder();
    private final Thread stdoutReader;
    private final Thread stderrReader;

    private ToolProcess(Process process) {
        this.process = process;
        OutputStream out = process.getOutputStream();
        this.stdin = new OutputStreamWriter(out, StandardCharsets.UTF_8);
        this.stdoutReader = Thread.ofPlatform()
                .daemon()
                .name("tool-stdout-" + process.pid())
                .start(this::drainStdout);
        this.stderrReader = Thread.ofPlatform()
                .daemon()
                .name("tool-stderr-" + process.pid())
                .start(this::drainStderr);
    }

    static ToolProcess start(List<String> command) throws IOException {
        return new ToolProcess(new ProcessBuilder(command).start());
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Writes {@code text} (whole lines) and flushes; IOException if the child is gone. */
    void send(String text) throws IOException {
        stdin.write(text);
        stdin.flush();
    }

    /**
     * The next line of stdout, waiting at most {@code timeout}; null on timeout.
     *
     * @throws IOException if stdout ended (the child exited or closed it)
     */
    String nextLine(Duration timeout) throws IOException, InterruptedException {
        String line = lines.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        if (line == EOF) {
            lines.add(EOF); // keep reporting the end to later reads
            throw new IOException("the process ended" + exitDescription() + stderrDescription());
        }
        return line;
    }

    private String exitDescription() {
        try {
            return process.waitFor(100, TimeUnit.MILLISECONDS) ? " with status " + process.exitValue() : "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    String stderrDescription() {
        synchronized (stderrTail) {
            return stderrTail.isEmpty()
                    ? ""
                    : "; its stderr ends: " + stderrTail.toString().strip();
        }
    }

    private void drainStdout() {
        try (BufferedReader r =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) lines.add(line);
        } catch (IOException e) {
            // The pipe broke because the process was killed: same as the end of output.
        } finally {
            lines.add(EOF);
        }
    }

    private void drainStderr() {
        byte[] buf = new byte[4096];
        try (InputStream err = process.getErrorStream()) {
            for (int n; (n = err.read(buf)) > 0; ) appendStderr(new String(buf, 0, n, StandardCharsets.UTF_8));
        } catch (IOException e) {
            // Killed: nothing more to keep.
        }
    }

    private void appendStderr(String s) {
        synchronized (stderrTail) {
            stderrTail.append(s);
            if (stderrTail.length() > STDERR_TAIL) stderrTail.delete(0, stderrTail.length() - STDERR_TAIL);
        }
    }

    /** Ends the process at once (with any children it started), closing its pipes. */
    void kill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        joinReaders(Duration.ofSeconds(1));
    }

    /** Closes stdin, which tells a batch-mode tool to exit; kills it if it does not within {@code grace}. */
    void close(Duration grace) {
        try {
            stdin.close();
        } catch (IOException e) {
            // Already gone: nothing to tell it.
        }
        try {
            if (!process.waitFor(grace.toNanos(), TimeUnit.NANOSECONDS)) kill();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill();
        }
        joinReaders(Duration.ofSeconds(1));
    }

    /**
     * Closes stdin, which tells a batch-mode tool to exit, without waiting for it to: a tool that read much
     * (llvm-symbolizer, a C library's debug info) takes up to 50 ms to free it all, and the caller (a profile just
     * written) has nothing more to ask. A daemon thread waits out {@code grace} and kills it if it is still there.
     */
    void release(Duration grace) {
        try {
            stdin.close();
        } catch (IOException e) {
            // Already gone: nothing to tell it.
        }
        Thread.ofPlatform().daemon().name("tool-release-" + process.pid()).start(() -> close(grace));
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(2));
    }

    private void joinReaders(Duration limit) {
        try {
            stdoutReader.join(limit);
            stderrReader.join(limit);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
