package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Mistakes a user makes get one clear line, no stack trace, and nothing of theirs is lost. */
class BadInputTest {
    @TempDir
    Path work;

    private void assertOneLineError(Ompprof.Result r, String expected) {
        assertEquals(2, r.status(), r.err());
        String err = r.err().strip();
        assertTrue(err.startsWith("ompprof: ") && err.contains(expected), err);
        assertEquals(1, err.lines().count(), "one line: " + err);
        assertFalse(err.contains("Exception"), err);
    }

    /**
     * A damaged profile: a cut file names the offset where it ends, a flipped byte the section
     * whose checksum fails; never a stack trace or a wrong answer.
     */
    @Test
    void damagedProfileNamesTheOffset() throws Exception {
        Path profile = work.resolve("p.ompprof");
        Ompprof.Result rec = Ompprof.run(
                work,
                Map.of("OMP_NUM_THREADS", "2"),
                "record",
                "-o",
                profile.toString(),
                "--",
                CPrograms.clang("spin").toString(),
                "0.2");
        assertEquals(0, rec.status(), rec.err());
        byte[] bytes = Files.readAllBytes(profile);
        Path cut = Files.write(work.resolve("cut.ompprof"), java.util.Arrays.copyOf(bytes, bytes.length * 2 / 3));
        assertOneLineError(
                Ompprof.run(work, Map.of(), "export", "--format", "collapsed", cut.toString()), "truncated at offset");
        byte[] flipped = bytes.clone();
        flipped[bytes.length / 2] ^= 0x5A;
        Path bad = Files.write(work.resolve("bad.ompprof"), flipped);
        for (String cmd : List.of("info", "export")) {
            List<String> args = cmd.equals("info")
                    ? List.of("info", bad.toString())
                    : List.of("export", "--format", "collapsed", bad.toString());
            assertOneLineError(Ompprof.run(work, Map.of(), args.toArray(String[]::new)), "corrupt section at offset ");
        }
    }

    @Test
    void missingProgram() throws Exception {
        assertOneLineError(Ompprof.run(work, Map.of(), "record", "--", "./no-such-program"), "not found");
        assertOneLineError(Ompprof.run(work, Map.of(), "record", "--", "no-such-program-on-path"), "not found");
    }

    @Test
    void programNotExecutable() throws Exception {
        Path script = Files.writeString(work.resolve("notexec.sh"), "echo hi\n");
        assertOneLineError(Ompprof.run(work, Map.of(), "record", "--", script.toString()), "not executable");
    }

    @Test
    void unwritableOutput() throws Exception {
        Path program = CPrograms.clang("spin");
        assertOneLineError(
                Ompprof.run(
                        work, Map.of(), "record", "-o", "/nonexistent-dir/x.ompprof", "--", program.toString(), "0.1"),
                "/nonexistent-dir");
        assertOneLineError(
                Ompprof.run(work, Map.of(), "record", "-o", work.toString(), "--", program.toString(), "0.1"),
                "directory");
    }

    @Test
    void existingOutputIsNotClobberedByAFailedRecording() throws Exception {
        Path keep = Files.writeString(work.resolve("keep.ompprof"), "mine");
        Ompprof.run(work, Map.of(), "record", "-o", keep.toString(), "--", "./no-such-program");
        assertEquals("mine", Files.readString(keep));
    }

    @Test
    void infoOnGarbage() throws Exception {
        Path junk = Files.writeString(work.resolve("junk.ompprof"), "this is not a recording");
        Ompprof.Result r = Ompprof.run(work, Map.of(), "info", junk.toString());
        assertEquals(2, r.status());
        assertTrue(r.err().startsWith("ompprof: ") && r.err().contains("junk.ompprof"), r.err());
        assertOneLineError(
                Ompprof.run(
                        work, Map.of(), "info", work.resolve("missing.ompprof").toString()),
                "missing.ompprof");
    }

    @Test
    void unknownCommandAndHelpAndVersion() throws Exception {
        assertOneLineError(Ompprof.run(work, Map.of(), "frobnicate"), "unknown command");
        Ompprof.Result help = Ompprof.run(work, Map.of(), "--help");
        assertEquals(0, help.status());
        assertTrue(help.out().contains("ompprof record"), help.out());
        Ompprof.Result version = Ompprof.run(work, Map.of(), "--version");
        assertEquals(0, version.status());
        assertTrue(version.out().matches("ompprof \\d+\\.\\d+\\.\\d+\\s*"), version.out());
    }
}
