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
}
