package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.unwinder.stitch.RecursionFold;

/**
 * Task recursion thousands of levels deep (deep_tasks.c: 3,000 nested tasks, the last spinning 0.5 s in leaf_work, as
 * BOTS concom's graph search nests 140,000), recorded with 2 threads. Every creation's context is its creator's plus
 * a few frames, so the leaf's path is over 6,000 frames deep; beyond {@link RecursionFold#FROM_FRAMES} frames the
 * repeated creations fold onto the level they repeat. What it checks: every sample in leaf_work lies under main, the
 * region and the recursion's own frames (descend and its task, alternating), no path is deeper than the fold's limit
 * and a few frames, and {@code info} counts the folded creations. Before, concom's 4-thread profile build ran for
 * minutes and took 6 GB, and its collapsed export of 2,021 samples was 4.8 GB.
 */
class DeepTaskRecursionEndToEndTest {
    @TempDir
    Path work;

    @Test
    void deepRecursionIsFoldedBeyondTheLimit() throws Exception {
        Path profile = work.resolve("deep_tasks.ompprof");
        Ompprof.Result rec = Ompprof.run(
                work,
                Map.of("OMP_NUM_THREADS", "2", "OMP_STACKSIZE", "64M"),
                "record",
                "-o",
                profile.toString(),
                "--",
                CPrograms.clang("deep_tasks").toString(),
                "3000",
                "0.5");
        assertEquals(0, rec.status(), rec.err());
        assertTrue(rec.out().contains("deep_tasks: 3000 levels"), rec.out());
        Ompprof.Result r = Ompprof.read("export", "--format", "collapsed", profile.toString());
        assertEquals(0, r.status(), r.err());
        String region = "parallel at deep_tasks.c:" + CPrograms.pragma("deep_tasks", "parallel"),
                task = "task at deep_tasks.c:" + CPrograms.pragma("deep_tasks", "task ");
        long inLeaf = 0, placed = 0;
        int deepest = 0;
        for (CollapsedLine line : CollapsedLine.all(r.out())) {
            List<String> frames = line.frames();
            long weight = line.weight();
            deepest = Math.max(deepest, frames.size());
            int leaf = frames.indexOf("leaf_work");
            if (leaf < 0) continue;
            inLeaf += weight;
            if (underTheRecursion(frames.subList(0, leaf), region, task)) placed += weight;
        }
        String info = Ompprof.read("info", profile.toString()).out();
        assertTrue(inLeaf >= 60, "0.5 s at 1 kHz, fewer on a loaded machine: " + inLeaf + "\n" + info);
        assertEquals(inLeaf, placed, "samples in leaf_work under main, the region and the recursion\n" + r.out());
        assertTrue(deepest <= RecursionFold.FROM_FRAMES + 16, "the deepest path has " + deepest + " frames");
        assertTrue(deepest >= RecursionFold.FROM_FRAMES - 16, "folded only beyond the limit: " + deepest + " frames");
        assertTrue(info.contains("frames folded onto a level above"), info);
    }

    /** main, the region, then descend and its task in turn, ending in the task. */
    private static boolean underTheRecursion(List<String> frames, String region, String task) {
        if (frames.size() < 4 || !frames.get(0).equals("main") || !frames.get(1).equals(region)) return false;
        for (int i = 2; i < frames.size(); i++) {
            if (!frames.get(i).equals(i % 2 == 0 ? "descend" : task)) return false;
        }
        return frames.getLast().equals(task);
    }
}
