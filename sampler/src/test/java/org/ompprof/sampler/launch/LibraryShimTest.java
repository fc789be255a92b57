package org.ompprof.sampler.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LibraryShimTest {
    private static final Path LIBOMP = Path.of("/usr/lib/llvm-19/lib/libomp.so.5");
    private static final Path TOOLCHAIN_LIBOMP = Path.of("/opt/llvm/lib/libomp.so.5");

    @TempDir
    Path dir;

    @Test
    void onlyDynamicElfFilesAreTraced() throws Exception {
        assertTrue(DynamicElf.hasInterpreter(Path.of("/bin/ls")));
        Path script = Files.writeString(dir.resolve("script"), "#!/bin/sh\necho ran > " + dir.resolve("ran") + "\n");
        assertFalse(DynamicElf.hasInterpreter(script));
        assertEquals(LoadedLibraries.NONE, LoadedLibraries.of(script, System.getenv()));
        assertFalse(Files.exists(dir.resolve("ran")), "a script is never started for the trace");
        assertFalse(DynamicElf.hasInterpreter(dir.resolve("missing")));
    }

    @Test
    void aProgramWithoutOpenMpNeedsNoShim() throws Exception {
        LoadedLibraries ls = LoadedLibraries.of(Path.of("/bin/ls"), System.getenv());
        assertTrue(ls.loads("libc.so.6"), ls.toString());
        assertTrue(LibraryShim.plan(ls, () -> {
                    throw new AssertionError("libomp asked for");
                })
                .isEmpty());
    }

    /** Built here with gcc, as a user's GCC program is: the trace sees libgomp, and the shim runs it on libomp. */
    @Test
    void aGccOpenMpProgramRunsOnLibomp() throws Exception {
        Path src = Files.writeString(
                dir.resolve("g.c"), "#include <omp.h>\nint main(void){return omp_get_max_threads() > 0 ? 0 : 1;}\n");
        Path bin = dir.resolve("g");
        Process p = new ProcessBuilder("gcc", "-fopenmp", "-o", bin.toString(), src.toString())
                .inheritIO()
                .start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), "gcc -fopenmp failed (make test installs gcc)");
        LibraryShim shim = LibraryShim.plan(LoadedLibraries.of(bin, System.getenv()), () -> TOOLCHAIN_LIBOMP);
        assertEquals(Map.of("libgomp.so.1", TOOLCHAIN_LIBOMP), shim.links());
        assertTrue(shim.runsGccProgramOnLibomp());
        assertEquals(Optional.empty(), shim.offloadRuntime());
    }

    /**
     * libomptarget loads "libomp.so"; the link names the libomp the loader found for the program, not the toolchain's.
     */
    @Test
    void anOffloadingProgramGetsItsOwnLibompAsLibompSo() {
        LoadedLibraries ls = LoadedLibraries.parse("""
                \tlinux-vdso.so.1 (0x00007f79900de000)
                \tlibomp.so.5 => /home/u/llvm/lib/libomp.so.5 (0x00007f798ffa4000)
                \tlibomptarget.so.19.1 => /home/u/llvm/lib/libomptarget.so.19.1 (0x00007f798feda000)
                \tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f798fcef000)
                \t/lib64/ld-linux-x86-64.so.2 (0x00007f79900e0000)
                """);
        LibraryShim shim = LibraryShim.plan(ls, () -> {
            throw new AssertionError("libomp asked for");
        });
        assertEquals(Map.of("libomp.so", Path.of("/home/u/llvm/lib/libomp.so.5")), shim.links());
        assertEquals(Optional.of(Path.of("/home/u/llvm/lib/libomp.so.5")), shim.offloadRuntime());
        assertFalse(shim.runsGccProgramOnLibomp());
    }

    @Test
    void noLinkWithoutBothLibompAndLibomptarget() {
        LoadedLibraries onlyRuntime = LoadedLibraries.parse("\tlibomp.so.5 => " + LIBOMP + " (0x1)\n");
        assertTrue(LibraryShim.plan(onlyRuntime, () -> TOOLCHAIN_LIBOMP).isEmpty());
        LoadedLibraries runtimeNotFound = LoadedLibraries.parse("""
                \tlibomp.so.5 => not found
                \tlibomptarget.so.19.1 => /usr/lib/llvm-19/lib/libomptarget.so.19.1 (0x1)
                """);
        assertFalse(runtimeNotFound.loads("libomp.so.5"));
        assertTrue(
                LibraryShim.plan(runtimeNotFound, () -> TOOLCHAIN_LIBOMP).isEmpty(),
                "never a libomp the program does not run on");
    }

    @Test
    void shimDirectoryHoldsTheLinksAndComesFirst() throws Exception {
        Path libomp = Files.writeString(dir.resolve("libomp.so.5"), "");
        Path shimDir = new LibraryShim(Map.of("libgomp.so.1", libomp, "libomp.so", libomp)).create();
        try {
            assertEquals(libomp, Files.readSymbolicLink(shimDir.resolve("libgomp.so.1")));
            assertEquals(libomp, Files.readSymbolicLink(shimDir.resolve("libomp.so")));
            assertEquals(shimDir + ":/a:/b", LibraryShim.libraryPath(shimDir, "/a:/b"));
            assertEquals(shimDir.toString(), LibraryShim.libraryPath(shimDir, null));
        } finally {
            LibraryShim.delete(shimDir);
        }
        assertFalse(Files.exists(shimDir));
    }
}
