package org.ompprof.sampler.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JobRankTest {
    @Test
    void eachLaunchersVariablesGiveTheRank() {
        assertEquals(
                Optional.of(new JobRank(1, 2, "")),
                JobRank.from(Map.of("OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE", "2")));
        assertEquals(
                Optional.of(new JobRank(3, 0, "prterun-vm-123@1")),
                JobRank.from(Map.of("PMIX_RANK", "3", "PMIX_NAMESPACE", "prterun-vm-123@1")));
        assertEquals(Optional.of(new JobRank(5, 8, "")), JobRank.from(Map.of("PMI_RANK", "5", "PMI_SIZE", "8")));
        assertEquals(
                Optional.of(new JobRank(7, 16, "4242")),
                JobRank.from(Map.of("SLURM_PROCID", "7", "SLURM_NTASKS", "16", "SLURM_JOB_ID", "4242")));
        assertEquals(Optional.empty(), JobRank.from(Map.of("PATH", "/bin")));
        assertEquals(
                Optional.empty(),
                JobRank.from(Map.of("PMI_RANK", "first")),
                "not a number: no launcher this ompprof knows");
        assertEquals(Optional.of(new JobRank(2, 0, "")), JobRank.from(Map.of("PMI_RANK", "x", "SLURM_PROCID", "2")));
    }

    @Test
    void eachRankWritesItsOwnFile() {
        Optional<JobRank> r1 = Optional.of(new JobRank(1, 2, ""));
        assertEquals("run.rank-1.ompprof", JobRank.outputName("run.ompprof", r1));
        assertEquals("out/run.rank-1", JobRank.outputName("out/run", r1));
        assertEquals("run-1-of-job.ompprof", JobRank.outputName("run-%r-of-job.ompprof", r1));
        assertEquals("run.ompprof", JobRank.outputName("run.ompprof", Optional.empty()));
        assertEquals("run-0.ompprof", JobRank.outputName("run-%r.ompprof", Optional.empty()), "one process is rank 0");
    }
}
