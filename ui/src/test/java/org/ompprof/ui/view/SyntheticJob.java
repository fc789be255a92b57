package org.ompprof.ui.view;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.merge.ProfileMerge;
import org.ompprof.calltree.profile.LineTable;
import org.ompprof.calltree.profile.MutexTable;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.ProfileWriter;
import org.ompprof.calltree.profile.RegionTable;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.sampler.omp.OmpState;
import org.ompprof.sampler.recording.HandlerHistogram;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.Stats;
import org.ompprof.unwinder.stitch.StitchCounters;

/**
 * An MPI + OpenMP job's rank profiles made up as {@code mpi_hybrid.c} behaves, and merged into a
 * job profile as {@code ompprof merge} does: every step rank r computes (1 + r) units on all its
 * threads, then its master thread waits in MPI_Allreduce for the slowest rank while its other
 * threads idle. One 1 ms sample per thread per millisecond, on one clock for all ranks.
 *
 * @param threads each rank's OpenMP threads, by rank
 * @param hosts each rank's host, by rank (null for a profile that names none)
 */
record SyntheticJob(List<Integer> threads, List<String> hosts, int steps, int unitMs) {
    private static final long MS = 1_000_000;

    /** Writes run.rank-R.ompprof for each rank into {@code dir}; merges them in {@code order} into job.ompprof. */
    Path write(Path dir, List<Integer> order) throws IOException {
        List<Path> inputs = new ArrayList<>();
        for (int rank : order) inputs.add(rank(dir.resolve("run.rank-" + rank + ".ompprof"), rank));
        Path job = dir.resolve("job.ompprof");
        ProfileMerge.merge(inputs, job);
        return job;
    }

    private Path rank(Path file, int rank) throws IOException {
        CallingContextTree tree = CallingContextTree.create();
        int main = frame(tree, "main"), step = frame(tree, "step"), compute = frame(tree, "compute");
        int exchange = frame(tree, "exchange"), allreduce = frame(tree, "MPI_Allreduce");
        int computing = tree.path(new int[] {main, step, compute});
        int waiting = tree.path(new int[] {main, exchange, allreduce});
        int idle = tree.path(new int[] {main, step});
        int slowest = threads.size(); // units a step of the last rank (1 + rank), which computes the most
        List<Timeline> lines = new ArrayList<>();
        long samples = 0;
        for (int t = 0; t < threads.get(rank); t++) {
            Timeline.Builder line = new Timeline.Builder(t);
            long ms = 0;
            for (int s = 0; s < steps; s++) {
                for (int i = 0; i < slowest * unitMs + 2; i++, ms++) {
                    boolean busy = i < (1 + rank) * unitMs;
                    int node = busy ? computing : t == 0 ? waiting : idle;
                    int state = busy
                            ? OmpState.WORK_PARALLEL.code()
                            : t == 0 ? OmpState.MPI_ALLREDUCE.code() : OmpState.IDLE.code();
                    tree.addSampleAt(node, t, state, MS);
                    line.add(ms * MS, node, state, MS);
                    samples++;
                }
            }
            lines.add(line.build());
        }
        Profile p = new Profile(
                tree,
                lines,
                StitchCounters.fromMap(Map.of()),
                Map.of(),
                new RegionTable(List.of()),
                new MutexTable(List.of()),
                LineTable.EMPTY,
                samples);
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put(Metadata.COMMAND, "./hybrid");
        meta.put(Metadata.MODE, "wall");
        meta.put(Metadata.MPI_RANK, Integer.toString(rank));
        meta.put(Metadata.MPI_WORLD_SIZE, Integer.toString(threads.size()));
        if (hosts.get(rank) != null) meta.put(Metadata.HOST, hosts.get(rank));
        ProfileWriter.write(
                file,
                new Metadata(meta),
                List.of(),
                List.of(),
                new Stats(HandlerHistogram.empty(), 0, 0, 0, 0, 0, 0, List.of(), List.of(), List.of()),
                p);
        return file;
    }

    private static int frame(CallingContextTree tree, String name) {
        return tree.frames().intern(Frame.of(FrameKind.USER, "/opt/app/hybrid", name, "hybrid.c", 0));
    }
}
