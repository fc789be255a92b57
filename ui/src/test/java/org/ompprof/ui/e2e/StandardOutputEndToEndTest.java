package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -o -} is standard output for every command whose output streams: export, merge, diff and
 * view --screenshot write there (and no file named "-"); what they write is the same as the file
 * {@code -o FILE} gives. record refuses it in one line: the program writes to standard output.
 */
class StandardOutputEndToEndTest {
    @TempDir
    static Path work;

    static Path a, b;

    @BeforeAll
    static void record() throws Exception {
        a = work.resolve("a.ompprof");
        b = work.resolve("b.ompprof");
        for (Path p : new Path[] {a, b}) {
            Ompprof.Result r = Ompprof.run(
                    work,
                    Map.of("OMP_NUM_THREADS", "2"),
                    "record",
                    "-o",
                    p.toString(),
                    "--",
                    CPrograms.clang("spin").toString(),
                    "0.3");
            assertEquals(0, r.status(), r.err());
        }
    }

    /** Runs ompprof in a fresh directory; returns its standard output's bytes, checking no file "-" appeared. */
    private static byte[] stdout(String name, String... args) throws Exception {
        Path dir = work.resolve(name);
        Ompprof.Result r = Ompprof.run(dir, Map.of(), args);
        assertEquals(0, r.status(), r.err());
        assertFalse(Files.exists(dir.resolve("-")), "a file named '-' was written");
        return Files.readAllBytes(dir.resolve("stdout.txt"));
    }

    private static String collapsed(Path profile) throws Exception {
        Ompprof.Result r = Ompprof.run(
                work.resolve("export-" + profile.getFileName()),
                Map.of(),
                "export",
                "--format",
                "collapsed",
                profile.toString());
        assertEquals(0, r.status(), r.err());
        return r.out();
    }

    @Test
    void exportWritesStandardOutput() throws Exception {
        String out = new String(stdout("export", "export", "--format", "collapsed", "-o", "-", a.toString()));
        assertTrue(out.contains("spin_for"), out);
        assertEquals(collapsed(a), out);
    }

    @Test
    void mergeAndDiffWriteTheProfileTheyWouldHaveWrittenToAFile() throws Exception {
        for (String verb : new String[] {"merge", "diff"}) {
            Path viaFile = work.resolve(verb + "-file.ompprof");
            assertEquals(
                    0,
                    Ompprof.run(
                                    work.resolve(verb + "-f"),
                                    Map.of(),
                                    verb,
                                    "-o",
                                    viaFile.toString(),
                                    a.toString(),
                                    b.toString())
                            .status());
            byte[] streamed = stdout(verb + "-s", verb, "-o", "-", a.toString(), b.toString());
            assertTrue(streamed.length > 100, verb + " wrote " + streamed.length + " bytes");
            Path copy = work.resolve(verb + "-stdout.ompprof");
            Files.write(copy, streamed);
            String tree = collapsed(copy);
            assertTrue(tree.contains("spin_for"), tree);
            assertEquals(collapsed(viaFile), tree, verb);
        }
    }

    @Test
    void screenshotWritesAPngToStandardOutput() throws Exception {
        byte[] png = stdout("png", "view", "--screenshot", "-", "--view", "flame", "--size", "400x300", a.toString());
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4));
    }

    @Test
    void recordRefusesStandardOutputInOneLine() throws Exception {
        Ompprof.Result r = Ompprof.run(
                work.resolve("rec"),
                Map.of(),
                "record",
                "-o",
                "-",
                "--",
                CPrograms.clang("spin").toString(),
                "0.1");
        assertNotEquals(0, r.status());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains("-o - cannot be standard output"), r.err());
        assertFalse(Files.exists(work.resolve("rec").resolve("-")));
    }
}
