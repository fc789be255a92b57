package org.ompprof.sampler.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MpiCompanionTest {
    private static final String MPI_PROGRAM = """
            \tlinux-vdso.so.1 (0x00007ffd)
            \tlibmpi.so.40 => /usr/lib/x86_64-linux-gnu/libmpi.so.40 (0x00007f00)
            \tlibomp.so.5 => /usr/lib/llvm-19/lib/libomp.so.5 (0x00007f01)
            """;
    private static final String OPENMP_PROGRAM = """
            \tlibomp.so.5 => /usr/lib/llvm-19/lib/libomp.so.5 (0x00007f01)
            \tlibmpich_helpers.so.1 => /opt/lib/libmpich_helpers.so.1 (0x00007f02)
            """;

    @TempDir
    Path dir;

    @Test
    void preloadedOnlyIntoProgramsThatLinkMpi() throws Exception {
        Path agent = Files.createFile(dir.resolve("libompprof.so"));
        Path companion = Files.createFile(dir.resolve(MpiCompanion.LIBRARY));
        assertEquals(
                Optional.of(companion),
                MpiCompanion.plan(LoadedLibraries.parse(MPI_PROGRAM), agent).library());
        assertEquals(MpiCompanion.NONE, MpiCompanion.plan(LoadedLibraries.parse(OPENMP_PROGRAM), agent));
        assertEquals(MpiCompanion.NONE, MpiCompanion.plan(LoadedLibraries.NONE, agent));
    }

    @Test
    void anMpiProgramWithoutTheBuiltCompanionGetsANote() {
        MpiCompanion c = MpiCompanion.plan(LoadedLibraries.parse(MPI_PROGRAM), dir.resolve("libompprof.so"));
        assertTrue(c.library().isEmpty());
        assertTrue(c.missing().orElseThrow().contains("libompprof-mpi.so is not built"), c.toString());
    }

    @Test
    void theCompanionGoesFirstInLdPreload() {
        Path c = Path.of("/x/libompprof-mpi.so");
        assertEquals("/x/libompprof-mpi.so", MpiCompanion.preload(c, null));
        assertEquals("/x/libompprof-mpi.so", MpiCompanion.preload(c, ""));
        assertEquals("/x/libompprof-mpi.so:/y/libtheirs.so", MpiCompanion.preload(c, "/y/libtheirs.so"));
    }
}
