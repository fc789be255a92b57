package org.ompprof.sampler.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The collector's own perf event: held where the kernel allows perf events (perf_event_paranoid &lt;= 2), a real
 * perf event descriptor the program cannot inherit, gone once closed; nothing held elsewhere.
 */
class PerfHooksTest {
    private static final long O_CLOEXEC = 02000000;

    private static boolean perfAllowed() throws Exception {
        return Integer.parseInt(Files.readString(Path.of("/proc/sys/kernel/perf_event_paranoid"))
                        .trim())
                <= 2;
    }

    @Test
    void holdsAPerfEventTheProgramCannotInherit() throws Exception {
        Optional<PerfHooks> held = PerfHooks.hold();
        assertEquals(perfAllowed(), held.isPresent());
        if (held.isEmpty()) return;
        Path fd = Path.of("/proc/self/fd/" + held.get().fd());
        assertEquals("anon_inode:[perf_event]", Files.readSymbolicLink(fd).toString());
        String flags = Files.readAllLines(
                        Path.of("/proc/self/fdinfo/" + held.get().fd()))
                .stream()
                .filter(l -> l.startsWith("flags:"))
                .findFirst()
                .orElseThrow();
        assertTrue((Long.parseLong(flags.substring(6).trim(), 8) & O_CLOEXEC) != 0, flags);
        held.get().close();
        assertFalse(Files.exists(fd, java.nio.file.LinkOption.NOFOLLOW_LINKS) && isPerf(fd), "closed");
    }

    private static boolean isPerf(Path fd) {
        try {
            return Files.readSymbolicLink(fd).toString().equals("anon_inode:[perf_event]");
        } catch (Exception e) {
            return false;
        }
    }
}
