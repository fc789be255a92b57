package org.ompprof.sampler.launch;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * This process's place in an MPI job, as its launcher tells it through the environment (Open
 * MPI, PMIx, MPICH/Hydra and Slurm each set their own variables). Every rank of a job runs its
 * own {@code ompprof record}, so each writes a profile of its own.
 *
 * @param rank this process's rank in the job's world
 * @param worldSize how many ranks, or 0 if the launcher does not say
 * @param jobId the launcher's job id, or empty
 */
public record JobRank(int rank, int worldSize, String jobId) {
    static final List<String> RANK_VARIABLES = List.of("OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID");
    static final List<String> SIZE_VARIABLES = List.of("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS");
    static final List<String> JOB_VARIABLES =
            List.of("SLURM_JOB_ID", "PMIX_NAMESPACE", "OMPI_MCA_orte_ess_jobid", "PMI_JOBID");
    /** Where a {@code -o} name wants the rank. */
    static final String RANK_PLACE = "%r";

    /** The rank the launcher gave this process, if it runs under one. */
    static Optional<JobRank> from(Map<String, String> env) {
        Optional<Integer> rank = firstNumber(env, RANK_VARIABLES);
        if (rank.isEmpty()) return Optional.empty();
        String job = JOB_VARIABLES.stream()
                .map(env::get)
                .filter(v -> v != null && !v.isBlank())
                .findFirst()
                .orElse("");
        return Optional.of(
                new JobRank(rank.get(), firstNumber(env, SIZE_VARIABLES).orElse(0), job));
    }

    private static Optional<Integer> firstNumber(Map<String, String> env, List<String> names) {
        for (String name : names) {
            String v = env.get(name);
            if (v == null) continue;
            try {
                int n = Integer.parseInt(v.strip());
                if (n >= 0) return Optional.of(n);
            } catch (NumberFormatException ignored) {
                // a variable of another meaning: try the next launcher's
            }
        }
        return Optional.empty();
    }

    /**
     * The output name for this rank: {@code %r} replaced by the rank where the user put it,
     * else {@code .rank-R} before the {@code .ompprof} extension (or at the end). Without a
     * launcher {@code %r} is rank 0 of a one-process job and any other name stays as it is.
     */
    static String outputName(String name, Optional<JobRank> rank) {
        int r = rank.map(JobRank::rank).orElse(0);
        if (name.contains(RANK_PLACE)) return name.replace(RANK_PLACE, Integer.toString(r));
        if (rank.isEmpty()) return name;
        String tag = ".rank-" + r;
        return name.endsWith(OutputTarget.EXTENSION)
                ? name.substring(0, name.length() - OutputTarget.EXTENSION.length()) + tag + OutputTarget.EXTENSION
                : name + tag;
    }
}
