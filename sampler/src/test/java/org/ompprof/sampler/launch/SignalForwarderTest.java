package org.ompprof.sampler.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.ompprof.sampler.posix.Posix;

@SuppressWarnings("try")
class SignalForwarderTest {
    /**
     * A signal this JVM was started ignoring (a suite started in the background of a non-interactive shell ignores
     * SIGINT, nohup SIGHUP) stays ignored, as the JVM leaves it: nothing is passed on, and the program, which inherits
     * the same, would ignore it anyway.
     */
    @Test
    void termAndIntReachTheChildAndSpareTheJvm() throws Exception {
        for (int signal : new int[] {Posix.SIGTERM, Posix.SIGINT}) {
            Process child = new ProcessBuilder("sleep", "30").start();
            try (SignalForwarder f = SignalForwarder.install(() -> Optional.of(child))) {
                assertEquals(0, Posix.kill(ProcessHandle.current().pid(), signal));
                if (ignoredSinceStart(signal)) {
                    assertFalse(child.waitFor(500, TimeUnit.MILLISECONDS), "ignored signal " + signal + " passed on");
                } else {
                    assertTrue(child.waitFor(10, TimeUnit.SECONDS), "the child got signal " + signal);
                    assertEquals(128 + signal, child.exitValue());
                }
            } finally {
                child.destroyForcibly();
            }
        }
    }

    private static boolean ignoredSinceStart(int signal) {
        return (ProgramStart.jvmIgnored(Path.of("/proc/self/status")) >>> (signal - 1) & 1) != 0;
    }

    @Test
    void aDeadChildIsNotSignalled() throws Exception {
        Process child = new ProcessBuilder("true").start();
        child.waitFor();
        try (SignalForwarder f = SignalForwarder.install(() -> Optional.of(child))) {
            assertEquals(0, Posix.kill(ProcessHandle.current().pid(), Posix.SIGHUP));
            Thread.sleep(200); // the handler runs on its own thread
        }
    }
}
