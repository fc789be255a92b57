package org.ompprof.ui.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.ompprof.blame.MpiCall;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.merge.ProfileMerge;
import org.ompprof.calltree.profile.DeviceTable;
import org.ompprof.calltree.profile.LineTable;
import org.ompprof.calltree.profile.MpiCallTable;
import org.ompprof.calltree.profile.MutexTable;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.ProfileReader;
import org.ompprof.calltree.profile.ProfileWriter;
import org.ompprof.calltree.profile.RegionTable;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.sampler.omp.OmpState;
import org.ompprof.sampler.recording.HandlerHistogram;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.Stats;
import org.ompprof.sampler.wire.Wire;
import org.ompprof.unwinder.stitch.StitchCounters;

/**
 * A job's merge (issue 17's scale goal: 1,024 rank profiles in under 60 s on 2 cores): RANKS synthetic rank
 * profiles of one thread each, a time step of compute and an MPI_Allreduce over the whole job, STEPS steps sampled
 * at 1 kHz, rank r computing (1 + r % 4) units a step; merged into one job profile in one step, REPEAT times,
 * cross-rank blame included. Prints the time (median, min, max), the input, and the mpi_blame the merge charged.
 *   usage: JobMergeBench OUT_DIR [RANKS=1024] [STEPS=1450] [REPEAT=3]
 */
public final class JobMergeBench {
    private static final long MS = 1_000_000;
    private static final int WORK = OmpState.WORK_SERIAL.code();
    private static final int ALLREDUCE = OmpState.mpi(Wire.MPI_CALL_ALLREDUCE).code();

    private JobMergeBench() {}

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        int ranks = args.length > 1 ? Integer.parseInt(args[1]) : 1024;
        int steps = args.length > 2 ? Integer.parseInt(args[2]) : 1450;
        int repeat = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        Files.createDirectories(out);
        List<Path> inputs = new ArrayList<>();
        long bytes = 0;
        for (int r = 0; r < ranks; r++) {
            Path p = out.resolve("job.rank-" + r + ".ompprof");
            Metadata meta = new Metadata(Map.of(
                    Metadata.COMMAND,
                    "./app",
                    Metadata.MODE,
                    "wall",
                    Metadata.HOST,
                    "node" + r / 64,
                    Metadata.MPI_RANK,
                    Integer.toString(r),
                    Metadata.MPI_WORLD_SIZE,
                    Integer.toString(ranks)));
            bytes += ProfileWriter.write(p, meta, List.of(), List.of(), emptyStats(), rank(r, ranks, steps));
            inputs.add(p);
        }
        Path job = out.resolve("job.ompprof");
        double[] seconds = new double[repeat];
        ProfileMerge.Result result = null;
        for (int k = 0; k < repeat; k++) {
            long t0 = System.nanoTime();
            result = ProfileMerge.merge(inputs, job);
            seconds[k] = (System.nanoTime() - t0) / 1e9;
        }
        Arrays.sort(seconds);
        long blamed;
        try (Recording rec = Recording.open(job)) {
            blamed = ProfileReader.read(rec).blame("waited_ns.mpi");
        }
        System.out.printf(
                Locale.ROOT,
                "job merge of %d rank profiles (%d steps, %,d samples each; %.1f MB in all) -> %,d bytes, "
                        + "%.1f s of MPI waiting charged to late ranks (mpi_blame)%n",
                ranks,
                steps,
                result.samples() / ranks,
                bytes / 1e6,
                result.bytes(),
                blamed / 1e9);
        System.out.printf(
                Locale.ROOT,
                "  %.2f s median (min %.2f, max %.2f, %d runs) on %d cores: %.0f rank profiles/s "
                        + "(goal: 1,024 in 60 s)%n",
                seconds[repeat / 2],
                seconds[0],
                seconds[repeat - 1],
                repeat,
                Runtime.getRuntime().availableProcessors(),
                ranks / seconds[repeat / 2]);
        for (Path p : inputs) Files.deleteIfExists(p);
        Files.deleteIfExists(job);
    }

    /** Rank r's one thread: compute for (1 + r % 4) ms a step (jittered), then the step's allreduce to the last. */
    private static Profile rank(int r, int ranks, int steps) {
        Random rnd = new Random(r);
        CallingContextTree tree = CallingContextTree.create();
        int main = tree.frames().intern(Frame.of(FrameKind.USER, "app", "main", "app.c", 1));
        int compute =
                tree.path(new int[] {main, tree.frames().intern(Frame.of(FrameKind.USER, "app", "compute", "app.c", 9))
                });
        int exchange = tree.path(new int[] {
            main, tree.frames().intern(Frame.of(FrameKind.USER, "app", "exchange", "app.c", 20))
        });
        Timeline.Builder timeline = new Timeline.Builder(1);
        List<MpiCall> calls = new ArrayList<>();
        long stepStart = 1_000 * MS, t = stepStart;
        for (int s = 0; s < steps; s++) {
            long enter = stepStart + (1 + r % 4) * MS + rnd.nextInt(200_000);
            long exit = stepStart + 4 * MS + 400_000; // the slowest ranks' compute and the reduction
            calls.add(new MpiCall(r, 1, Wire.MPI_CALL_ALLREDUCE, 1, ranks, s, -1, -1, enter, exit, 0));
            for (; t + MS <= exit; t += MS) {
                boolean in = t + MS > enter;
                timeline.add(t + MS, in ? exchange : compute, in ? ALLREDUCE : WORK, MS);
                tree.addSampleAt(in ? exchange : compute, 1, in ? ALLREDUCE : WORK, MS);
            }
            stepStart = exit;
        }
        return new Profile(
                tree,
                List.of(timeline.build()),
                StitchCounters.fromMap(Map.of()),
                Map.of(),
                new RegionTable(List.of()),
                new MutexTable(List.of()),
                LineTable.EMPTY,
                timeline.size(),
                DeviceTable.empty(),
                new MpiCallTable(calls, List.of()));
    }

    private static Stats emptyStats() {
        return new Stats(HandlerHistogram.empty(), 0, 0, 0, 0, 0, 0, List.of(), List.of(), List.of());
    }
}
