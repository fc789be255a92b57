package org.ompprof.sampler.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.ompprof.sampler.posix.Posix;

@SuppressWarnings("try")
class SignalForwarderTest {
    @Test
    void termAndIntReachTheChildAndSpareTheJvm() throws Exception {
        for (int signal : new int[] {Posix.SIGTERM, Posix.SIGINT}) {
            Process child = new ProcessBuilder("sleep", "30").start();
            try (SignalForwarder f = SignalForwarder.install(() -> Optional.of(child))) {
                assertEquals(0, Posix.kill(ProcessHandle.current().pid(), signal));
                assertTrue(child.waitFor(10, TimeUnit.SECONDS), "the child got signal " + signal);
                assertEquals(128 + signal, child.exitValue());
            } finally {
                child.destroyForcibly();
            }
        }
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
