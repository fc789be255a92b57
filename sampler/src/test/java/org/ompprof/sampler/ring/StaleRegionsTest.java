package org.ompprof.sampler.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StaleRegionsTest {
    @TempDir
    Path dir;

    @Test
    void aDeadJvmsRegionGoesALiveOnesStays() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path stale = Files.createFile(dir.resolve("ompprof-" + gone.pid() + "-0123456789abcdef"));
        Path live = Files.createFile(
                dir.resolve("ompprof-" + ProcessHandle.current().pid() + "-fedcba9876543210"));
        Path other = Files.createFile(dir.resolve("ompprof-notes"));
        assertEquals(List.of(stale), StaleRegions.clean(dir));
        assertTrue(Files.exists(live), "a running recording's region is left alone");
        assertTrue(Files.exists(other), "a file this code did not name is left alone");
    }
}
