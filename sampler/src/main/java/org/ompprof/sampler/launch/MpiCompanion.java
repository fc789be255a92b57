package org.ompprof.sampler.launch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The MPI companion library ({@value #LIBRARY}, beside the agent), preloaded into programs that
 * link an MPI library so that time inside MPI calls is recorded as such (its PMPI interposition
 * writes each call's enter and exit through the agent). Only then: a program without MPI runs
 * without it.
 *
 * @param library the companion, when the program loads MPI and it was built
 * @param missing a note for the user when the program loads MPI and the companion was not built
 */
record MpiCompanion(Optional<Path> library, Optional<String> missing) {
    static final String LIBRARY = "libompprof-mpi.so";
    /** Open MPI's libmpi.so.40, MPICH's libmpi.so.12. */
    static final String LIBMPI_PREFIX = "libmpi.so";

    static final MpiCompanion NONE = new MpiCompanion(Optional.empty(), Optional.empty());

    static MpiCompanion plan(LoadedLibraries libraries, Path agent) {
        if (libraries.first(LIBMPI_PREFIX).isEmpty()) return NONE;
        Path companion = agent.resolveSibling(LIBRARY);
        if (Files.isRegularFile(companion)) return new MpiCompanion(Optional.of(companion), Optional.empty());
        return new MpiCompanion(
                Optional.empty(),
                Optional.of("the program uses MPI, but " + companion + " is not built, so its MPI "
                        + "time counts as work; install libopenmpi-dev and run make"));
    }

    /**
     * LD_PRELOAD with a library of ompprof's first: the agent, the MPI companion. Each takes itself out again at
     * start, so the program sees {@code existing}.
     */
    static String preload(Path library, String existing) {
        return existing == null || existing.isBlank() ? library.toString() : library + ":" + existing;
    }
}
