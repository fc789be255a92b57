package org.ompprof.sampler.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.sampler.UserError;
import org.ompprof.sampler.wire.Wire;
import org.ompprof.sampler.wire.Wire.RegionHeader;

class RegionTest {
    static final RegionLayout LAYOUT = new RegionLayout(3, 8192, 4096, Wire.MODE_CPU, 997, 1024);

    @TempDir
    Path dir;

    @Test
    void createdPrivateReservedAndFilledIn() throws IOException {
        try (Region region = Region.create(dir, LAYOUT)) {
            Path file = region.path();
            assertTrue(file.getFileName()
                    .toString()
                    .matches("ompprof-" + ProcessHandle.current().pid() + "-[0-9a-f]{16}"));
            assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(file));
            assertEquals(LAYOUT.totalSize(), Files.size(file));
            assertEquals(4096 + 3 * (4096 + 8192 + 4096), LAYOUT.totalSize());
            MemorySegment h = region.segment();
            assertEquals(Wire.WIRE_MAGIC, h.get(ValueLayout.JAVA_LONG, RegionHeader.MAGIC));
            assertEquals(Wire.WIRE_VERSION, h.get(ValueLayout.JAVA_INT, RegionHeader.VERSION));
            assertEquals(3, h.get(ValueLayout.JAVA_INT, RegionHeader.SLOT_COUNT));
            assertEquals(8192, h.get(ValueLayout.JAVA_LONG, RegionHeader.SAMPLE_RING_SIZE));
            assertEquals(4096, h.get(ValueLayout.JAVA_LONG, RegionHeader.EVENT_RING_SIZE));
            assertEquals(Wire.MODE_CPU, h.get(ValueLayout.JAVA_INT, RegionHeader.MODE));
            assertEquals(997, h.get(ValueLayout.JAVA_INT, RegionHeader.RATE_HZ));
            assertEquals(1024, h.get(ValueLayout.JAVA_INT, RegionHeader.STACK_BYTES));
            assertEquals(LAYOUT.totalSize(), h.get(ValueLayout.JAVA_LONG, RegionHeader.TOTAL_SIZE));

            assertFalse(region.unlinkIfMapped(), "kept until the agent has mapped it");
            assertTrue(Files.exists(file));
            h.set(ValueLayout.JAVA_INT, RegionHeader.AGENT_STATE, Wire.AGENT_MAPPED);
            assertTrue(region.unlinkIfMapped());
            assertFalse(Files.exists(file));
            h.set(ValueLayout.JAVA_LONG, LAYOUT.slotOffset(2) + Wire.SlotHeader.HANDLER_CALLS, 5);
            assertEquals(5, region.slots().get(2).handlerCalls(), "the mapping outlives the file");
        }
    }

    @Test
    void closeRemovesTheFile() throws IOException {
        Path file;
        try (Region region = Region.create(Region.DEFAULT_DIR, LAYOUT)) {
            file = region.path();
            assertTrue(Files.exists(file));
        }
        assertFalse(Files.exists(file));
    }

    @Test
    void runtimeVersionIsReadUpToItsNul() throws IOException {
        try (Region region = Region.inMemory(LAYOUT)) {
            MemorySegment h = region.segment();
            h.setString(RegionHeader.RUNTIME_VERSION, "LLVM OMP version: 5.0");
            assertEquals("", region.runtimeVersion(), "not before the agent attached");
            h.set(ValueLayout.JAVA_INT, RegionHeader.AGENT_STATE, Wire.AGENT_OMPT);
            assertEquals("LLVM OMP version: 5.0", region.runtimeVersion());
        }
    }

    @Test
    void aFullShmIsExplained() throws IOException {
        long total = Files.getFileStore(Region.DEFAULT_DIR).getTotalSpace();
        // tmpfs refuses a fallocate larger than itself before allocating anything
        assumeTrue(total > 0 && total < (1L << 40), "/dev/shm has no size limit");
        int slots = (int) Math.min(4096, 2 * (total >> 30) + 2);
        RegionLayout huge = new RegionLayout(slots, 1L << 30, 4096, Wire.MODE_WALL, 1000, 1024);
        UserError e = assertThrows(UserError.class, () -> Region.create(Region.DEFAULT_DIR, huge));
        assertTrue(
                e.getMessage()
                        .startsWith("no room in shared memory (/dev/shm): need "
                                + ((huge.totalSize() + (1 << 20) - 1) >> 20) + " MiB, "),
                e.getMessage());
        assertTrue(e.getMessage().endsWith("MiB free; free space or use --slots/--ring-kib to shrink"), e.getMessage());
        try (var files = Files.list(Region.DEFAULT_DIR)) {
            assertTrue(
                    files.noneMatch(p -> p.getFileName()
                            .toString()
                            .startsWith("ompprof-" + ProcessHandle.current().pid() + "-")),
                    "nothing left behind");
        }
    }
}
