package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Known call paths through the whole product (record, profile file, export) for the two
 * programs the stitch tests do not cover: one built with gcc (run on libomp's GOMP entry
 * points) and one whose work is in a library loaded with dlopen from a file deleted while it
 * runs. On every thread, at least 95% of the samples in the leaf function must sit under the
 * exact path from main, with no OpenMP runtime frame in it.
 */
class KnownPathsEndToEndTest {
    private static final double TOLERANCE = 0.95;
    private static final Map<String, String> TWO_THREADS = Map.of("OMP_NUM_THREADS", "2");

    @TempDir
    Path work;

    private Path record(String name, String... command) throws Exception {
        Path profile = work.resolve(name + ".ompprof");
        String[] args = new String[command.length + 4];
        args[0] = "record";
        args[1] = "-o";
        args[2] = profile.toString();
        args[3] = "--";
        System.arraycopy(command, 0, args, 4, command.length);
        Ompprof.Result r = Ompprof.run(work, TWO_THREADS, args);
        assertEquals(0, r.status(), r.err());
        return profile;
    }

    /**
     * Per thread: the samples whose path reaches the leaf, and how many of them lie under exactly one of {@code paths}.
     */
    private void assertKnownPath(Path profile, List<List<String>> paths) throws Exception {
        String leaf = paths.getFirst().getLast();
        for (int thread = 1; thread <= 2; thread++) {
            Ompprof.Result r = Ompprof.read(
                    "export", "--format", "collapsed", "--thread", Integer.toString(thread), profile.toString());
            assertEquals(0, r.status(), r.err());
            long inLeaf = 0, exact = 0;
            for (CollapsedLine line : CollapsedLine.all(r.out())) {
                List<String> frames = line.frames();
                long weight = line.weight();
                int at = frames.indexOf(leaf);
                if (at < 0) continue;
                inLeaf += weight;
                if (paths.contains(frames.subList(0, at + 1))) exact += weight;
            }
            assertTrue(inLeaf >= 100, "thread " + thread + ": only " + inLeaf + " samples in " + leaf + "\n" + r.out());
            assertTrue(
                    exact >= TOLERANCE * inLeaf,
                    String.format(
                            "thread %d: %d of %d samples in %s under %s%n%s",
                            thread, exact, inLeaf, leaf, paths, r.out()));
        }
    }

    @Test
    void gccProgramPathsGoThroughItsOutlinedRegion() throws Exception {
        Path profile = record("gcc", CPrograms.gcc("spin").toString(), "0.6");
        // gcc's outlined body main._omp_fn.0, shown as its construct and the line of its pragma
        assertKnownPath(profile, List.of(List.of("main", "parallel at spin.c:13", "spin_for")));
    }

    @Test
    void dlopenedLibraryDeletedAtRunTimeIsNamed() throws Exception {
        Path plugin = CPrograms.sharedLibrary("plugin");
        Path copy = work.resolve("copy-of-plugin.so");
        Path profile =
                record("dlopen", CPrograms.clang("dlopen_plugin").toString(), plugin.toString(), copy.toString());
        assertTrue(Files.notExists(copy), "the program deleted its copy");
        // two regions (before and after the file is deleted), each clang's outlined body and its debug twin shown as
        // one
        // frame: the construct at the line of its pragma
        List<Integer> pragmas = CPrograms.pragmas("dlopen_plugin", "parallel");
        assertEquals(3, pragmas.size()); // the first region, before the dlopen, runs no plugin code
        assertKnownPath(
                profile,
                List.of(
                        List.of("main", "parallel at dlopen_plugin.c:" + pragmas.get(1), "plugin_work", "spin_for"),
                        List.of("main", "parallel at dlopen_plugin.c:" + pragmas.get(2), "plugin_work", "spin_for")));
    }

    /**
     * A library dlopen'ed, used for 0.3 s, dlclose'd and deleted with no OpenMP event in between:
     * the loader's auditor has the agent announce it before it is unmapped, so its function is
     * named on its full path (without it: {@code <truncated>;?+0x7f...}) and no frame is unnamed.
     */
    @Test
    void libraryClosedBetweenOpenMpEventsIsNamed() throws Exception {
        Path copy = work.resolve("closed-plugin.so");
        Path profile = record(
                "dlclose",
                CPrograms.clang("dlclose_between").toString(),
                CPrograms.sharedLibrary("plugin").toString(),
                copy.toString());
        assertTrue(Files.notExists(copy), "the program deleted its copy");
        Ompprof.Result r = Ompprof.read("export", "--format", "collapsed", profile.toString());
        assertEquals(0, r.status(), r.err());
        long inPlugin = 0, onPath = 0, unnamed = 0;
        for (String line : r.out().lines().toList()) {
            long weight = Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
            if (line.contains("?+0x") || line.contains("<truncated>")) unnamed += weight;
            if (!line.contains("plugin_work")) continue;
            inPlugin += weight;
            if (line.startsWith("main;plugin_work;spin_for")) onPath += weight;
        }
        String info = Ompprof.read("info", profile.toString()).out();
        assertTrue(inPlugin >= 100, "only " + inPlugin + " samples in plugin_work\n" + r.out() + info);
        assertTrue(
                onPath >= TOLERANCE * inPlugin,
                onPath + " of " + inPlugin + " on main;plugin_work;spin_for\n" + r.out());
        assertEquals(0, unnamed, r.out());
    }

    /**
     * A library loaded before the first OpenMP construct, run 0.3 s, closed, and another loaded in its place
     * (dl_replaced.c checks that it took the place): the first is announced as it is loaded (the auditor's
     * la_activity), so its samples are named on their full path, not after the second library, which the JVM knew
     * at that place ({@code _start;...;libplugin_b.so+0x1115;spin_for}, main lost, 263 of 442 samples). The second
     * library's lazily bound call of signal() works: its guarded slot is written once the library is relocated (one
     * written before got the library's base added to it, and MPI_Init jumped to it).
     */
    @Test
    void libraryReplacedAtItsPlaceKeepsItsNames() throws Exception {
        Path profile = work.resolve("replaced.ompprof");
        Ompprof.Result run = Ompprof.record(
                work,
                2,
                profile,
                CPrograms.clang("dl_replaced").toString(),
                CPrograms.sharedLibrary("plugin").toString(),
                CPrograms.sharedLibrary("plugin_b").toString());
        assertEquals(0, run.status(), run.err());
        assertEquals("the second library took the first's place: yes; its signal handler ran: yes\n", run.out());
        Ompprof.Result r = Ompprof.read("export", "--format", "collapsed", profile.toString());
        assertEquals(0, r.status(), r.err());
        long inPlugin = 0, onPath = 0, unnamed = 0, second = 0;
        for (String line : r.out().lines().toList()) {
            long weight = Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
            if (line.contains("?+0x") || line.contains("<truncated>") || line.contains("libplugin")) unnamed += weight;
            if (!line.contains("parallel at") && line.contains("spin_for"))
                second += line.contains("plugin_work") ? 0 : weight;
            if (!line.contains("plugin_work")) continue;
            inPlugin += weight;
            if (line.startsWith("main;plugin_work;spin_for")) onPath += weight;
        }
        assertTrue(inPlugin >= 150, "only " + inPlugin + " samples in plugin_work (0.3 s)\n" + r.out());
        assertTrue(
                onPath >= TOLERANCE * inPlugin,
                onPath + " of " + inPlugin + " on main;plugin_work;spin_for\n" + r.out());
        assertEquals(0, unnamed, r.out());
        assertEquals(0, second, "no spin outside a region but the first library's\n" + r.out());
    }
}
