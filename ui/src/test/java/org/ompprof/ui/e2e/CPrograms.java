package org.ompprof.ui.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** Compiles the known-answer C programs of src/test/c into target/c-bin, once per build. */
public final class CPrograms {
    private static final Path SOURCES = Path.of("src/test/c").toAbsolutePath();
    private static final Path BIN = Path.of("target/c-bin").toAbsolutePath();

    private CPrograms() {}

    /** The source of the program {@code name}. */
    static Path source(String name) {
        return SOURCES.resolve(name + ".c");
    }

    /** The lines (from 1) of the program {@code name}.c that {@code test} accepts, as a profile numbers them. */
    static List<Integer> lines(String name, Predicate<String> test) {
        List<String> source;
        try {
            source = Files.readAllLines(source(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < source.size(); i++) if (test.test(source.get(i))) out.add(i + 1);
        if (out.isEmpty()) throw new AssertionError("no such line in " + name + ".c");
        return out;
    }

    /** The line of the first {@code #pragma omp CONSTRUCT} in the program {@code name}.c, as a profile names it. */
    static int pragma(String name, String construct) {
        return pragmas(name, construct).getFirst();
    }

    /** The lines of every {@code #pragma omp CONSTRUCT} in the program {@code name}.c, in order. */
    static List<Integer> pragmas(String name, String construct) {
        return lines(name, l -> l.trim().startsWith("#pragma omp " + construct));
    }

    /** The program {@code name}.c built with clang-19 -fopenmp. */
    public static Path clang(String name) {
        return build(
                name, name, List.of("clang-19", "-fopenmp", "-g", "-O1", "-fno-omit-frame-pointer"), List.of("-lm"));
    }

    /**
     * The program {@code name}.c built as release builds are, with clang-19 -fopenmp -O2 and no frame pointers (rbp is
     * then any register), as {@code name-O2}.
     */
    static Path clangRelease(String name) {
        return build(name, name + "-O2", List.of("clang-19", "-fopenmp", "-g", "-O2"), List.of("-lm"));
    }

    /**
     * The program {@code name}.c built as {@link #clang} does, bound at load time with full RELRO (its GOT read-only
     * once relocated, as hardened distributions build), as {@code name-now}.
     */
    static Path clangBoundNow(String name) {
        return build(
                name,
                name + "-now",
                List.of("clang-19", "-fopenmp", "-g", "-O1", "-fno-omit-frame-pointer"),
                List.of("-lm", "-Wl,-z,now,-z,relro"));
    }

    /** The program {@code name}.c built with gcc -fopenmp (links libgomp), as {@code name-gcc}. */
    static Path gcc(String name) {
        return build(name, name + "-gcc", List.of("gcc", "-fopenmp", "-g", "-O1"), List.of("-lm"));
    }

    /** The program {@code name}.c built with clang-19 and no OpenMP, as {@code name-plain}. */
    static Path plain(String name) {
        return build(name, name + "-plain", List.of("clang-19", "-g", "-O1"), List.of());
    }

    /**
     * The program {@code name}.c built with clang-19 to offload its target regions to the host
     * device (an x86-64 offload image), as {@code name-offload}; libomptarget is found by rpath.
     */
    static Path offload(String name) {
        return build(
                name,
                name + "-offload",
                List.of(
                        "clang-19",
                        "-fopenmp",
                        "-fopenmp-targets=x86_64-pc-linux-gnu",
                        "-g",
                        "-O1",
                        "-fno-omit-frame-pointer"),
                List.of("-Wl,-rpath,/usr/lib/llvm-19/lib"));
    }

    /** The MPI program {@code name}.c built with Open MPI's mpicc over clang-19 -fopenmp. */
    static Path mpi(String name) {
        return build(
                name,
                name + "-mpi",
                List.of("env", "OMPI_CC=clang-19", "mpicc", "-fopenmp", "-g", "-O1", "-fno-omit-frame-pointer"),
                List.of());
    }

    /**
     * The MPI Fortran program {@code name}.f90 built with Open MPI's mpif90 over gfortran -fopenmp, as {@code
     * name-mpif}.
     */
    static Path mpiFortran(String name) {
        return build(
                name + ".f90",
                name + "-mpif",
                List.of("mpif90", "-fopenmp", "-g", "-O1", "-fno-omit-frame-pointer"),
                List.of());
    }

    /** The C++ program {@code name}.cc built with clang++-19 -fopenmp (libstdc++, which has no debug info here). */
    static Path cxx(String name) {
        return build(
                name + ".cc",
                name,
                List.of("clang++-19", "-fopenmp", "-g", "-O1", "-fno-omit-frame-pointer"),
                List.of());
    }

    /** The Fortran program {@code name}.f90 built with gfortran -fopenmp (run on libomp's GOMP entry points). */
    static Path gfortran(String name) {
        return build(
                name + ".f90",
                name,
                List.of("gfortran", "-fopenmp", "-g", "-O1", "-fno-omit-frame-pointer"),
                List.of());
    }

    /** The same without debug info, as proxy applications' release builds are (CloverLeaf): {@code <name>-nodebug}. */
    static Path gfortranWithoutDebugInfo(String name) {
        return build(
                name + ".f90",
                name + "-nodebug",
                List.of("gfortran", "-fopenmp", "-O1", "-fno-omit-frame-pointer"),
                List.of());
    }

    /** The shared library {@code lib<name>.so} built from {@code name}.c with clang-19. */
    static Path sharedLibrary(String name) {
        return build(name, "lib" + name + ".so", List.of("clang-19", "-shared", "-fPIC", "-g", "-O1"), List.of());
    }

    /** Whether {@code tool} is an executable in a directory of PATH. */
    static boolean onPath(String tool) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) return true;
        }
        return false;
    }

    private static synchronized Path build(String name, String out, List<String> compiler, List<String> libs) {
        Path source = SOURCES.resolve(name.contains(".") ? name : name + ".c");
        Path binary = BIN.resolve(out);
        try {
            Files.createDirectories(BIN);
            if (Files.exists(binary)
                    && Files.getLastModifiedTime(binary).compareTo(Files.getLastModifiedTime(source)) > 0) {
                return binary;
            }
            List<String> cmd = new ArrayList<>(compiler);
            cmd.addAll(List.of("-I", SOURCES.toString(), "-o", binary.toString(), source.toString()));
            cmd.addAll(libs);
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String log = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("compiling " + name + " failed: " + String.join(" ", cmd) + "\n" + log);
            }
            return binary;
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("compiling " + name + ": " + e, e);
        }
    }
}
