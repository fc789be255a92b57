package org.ompprof.unwinder.stack;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ompprof.unwinder.elf.ElfFile;

/**
 * Two libraries loaded in turn at one place: the place's module, and a transient for the time it was mapped (an MPI's
 * initialization loads and unloads dozens of components, sampled since the program's start).
 */
class AddressSpaceTest {
    private static final long BIAS = 0x7f0000000000L;

    @Test
    void aTransientHoldsItsPlaceForItsTimeOnly() throws Exception {
        ElfFile omp = ElfFile.read(Path.of("/usr/lib/llvm-19/lib/libomp.so.5"));
        Module kept = Module.of("kept", omp, BIAS), passing = Module.of("passing", omp, BIAS);
        AddressSpace space = AddressSpace.of(List.of(kept), List.of(new AddressSpace.Transient(passing, 100, 200)));
        long pc = kept.ranges().getFirst().start() + 16;
        assertSame(passing, space.find(pc, 100));
        assertSame(passing, space.find(pc, 199));
        assertSame(kept, space.find(pc, 99));
        assertSame(kept, space.find(pc, 200));
        assertSame(kept, space.find(pc, 0), "no time: the place's module");
        assertSame(kept, space.find(pc));
        assertNull(space.find(BIAS - 1, 150), "outside both");
    }
}
