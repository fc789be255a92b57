package org.ompprof.sampler.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GompShimTest {
    @TempDir
    Path dir;

    @Test
    void onlyDynamicElfFilesAreTraced() throws Exception {
        assertTrue(DynamicElf.hasInterpreter(Path.of("/bin/ls")));
        Path script = Files.writeString(dir.resolve("script"), "#!/bin/sh\necho ran > " + dir.resolve("ran") + "\n");
        assertFalse(DynamicElf.hasInterpreter(script));
        assertFalse(GompShim.needsLibgomp(script, System.getenv()));
        assertFalse(Files.exists(dir.resolve("ran")), "a script is never started for the trace");
        assertFalse(DynamicElf.hasInterpreter(dir.resolve("missing")));
    }

    @Test
    void aProgramWithoutLibgompDoesNotNeedTheShim() throws Exception {
        assertFalse(GompShim.needsLibgomp(Path.of("/bin/ls"), System.getenv()));
    }

    @Test
    void aGccOpenMpProgramNeedsTheShim() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/gcc")), "gcc not installed");
        Path src = Files.writeString(dir.resolve("g.c"), "#include <omp.h>\nint main(void){return omp_get_max_threads() > 0 ? 0 : 1;}\n");
        Path bin = dir.resolve("g");
        Process p = new ProcessBuilder("gcc", "-fopenmp", "-o", bin.toString(), src.toString()).inheritIO().start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assumeTrue(p.exitValue() == 0, "gcc -fopenmp failed (libgomp missing?)");
        assertTrue(GompShim.needsLibgomp(bin, System.getenv()));
    }

    @Test
    void shimDirectoryLinksLibgompToLibomp() throws Exception {
        Path libomp = Files.writeString(dir.resolve("libomp.so.5"), "");
        Path shim = GompShim.create(libomp);
        try {
            assertEquals(libomp, Files.readSymbolicLink(shim.resolve("libgomp.so.1")));
            assertEquals(shim + ":/a:/b", GompShim.libraryPath(shim, "/a:/b"));
            assertEquals(shim.toString(), GompShim.libraryPath(shim, null));
        } finally {
            GompShim.delete(shim);
        }
        assertFalse(Files.exists(shim));
    }
}
