package org.ompprof.sampler.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.sampler.UserError;

class ProgramAndOutputTest {
    @TempDir
    Path dir;

    Path file(String name, String perms) throws IOException {
        Path p = Files.writeString(dir.resolve(name), "#!/bin/sh\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(perms));
        return p;
    }

    @Test
    void aNameWithASlashIsAPath() throws IOException {
        Path app = file("app", "rwxr-xr-x");
        assertEquals(app, ProgramResolver.resolve("./app", "/nowhere", dir));
        assertEquals(app, ProgramResolver.resolve(app.toString(), "", Path.of("/")));
        assertMessage("program not found: ./missing", () -> ProgramResolver.resolve("./missing", "", dir));
        file("data", "rw-r--r--");
        assertMessage("not executable: ./data (chmod +x?)", () -> ProgramResolver.resolve("./data", "", dir));
        assertMessage("not executable: ./ (it is a directory)", () -> ProgramResolver.resolve("./", "", dir));
    }

    @Test
    void aBareNameIsSearchedOnPath() throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path other = Files.createDirectories(dir.resolve("other"));
        Files.writeString(other.resolve("tool"), "x");
        Files.writeString(bin.resolve("tool"), "x");
        Files.setPosixFilePermissions(bin.resolve("tool"), PosixFilePermissions.fromString("rwxr-xr-x"));
        String path = other + ":" + bin;
        assertEquals(
                bin.resolve("tool"),
                ProgramResolver.resolve("tool", path, dir),
                "skips the non-executable match like a shell");
        assertMessage(
                "not executable: " + other.resolve("tool") + " (chmod +x?)",
                () -> ProgramResolver.resolve("tool", other.toString(), dir));
        assertMessage("program not found: nosuchtool", () -> ProgramResolver.resolve("nosuchtool", path, dir));
        assertEquals(Path.of("/bin/sh"), ProgramResolver.resolve("sh", "/bin", dir));
    }

    @Test
    void outputDefaultsToTheProgramNameHere() throws IOException {
        Path app = file("app", "rwxr-xr-x");
        OutputTarget t = OutputTarget.choose(Optional.empty(), app, dir, Optional.empty());
        assertEquals(dir.resolve("app.ompprof"), t.path());
        assertEquals("app.ompprof", t.shown());
        Files.createDirectories(dir.resolve("sub"));
        OutputTarget sub = OutputTarget.choose(Optional.of("sub/../sub/x.ompprof"), app, dir, Optional.empty());
        assertEquals(dir.resolve("sub/x.ompprof"), sub.path());
        assertEquals("sub/../sub/x.ompprof", sub.shown());
    }

    @Test
    void badOutputsAreRefusedUpFront() throws IOException {
        Path app = file("app", "rwxr-xr-x");
        Files.createDirectories(dir.resolve("d"));
        assertMessage(
                "output is a directory: d", () -> OutputTarget.choose(Optional.of("d"), app, dir, Optional.empty()));
        assertMessage(
                "output directory does not exist: " + dir.resolve("nope"),
                () -> OutputTarget.choose(Optional.of("nope/x.ompprof"), app, dir, Optional.empty()));
        Path ro = Files.createDirectories(dir.resolve("ro"));
        Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
        if (!Files.isWritable(ro)) { // root can write anywhere
            assertMessage(
                    "cannot write to the output directory: " + ro,
                    () -> OutputTarget.choose(Optional.of("ro/x.ompprof"), app, dir, Optional.empty()));
        }
    }

    @Test
    void agentMustBeBuilt() throws IOException {
        Path agent = Files.writeString(dir.resolve("libompprof.so"), "");
        assertEquals(agent, Toolchain.agent(k -> k.equals(Toolchain.AGENT_PROPERTY) ? agent.toString() : null, dir));
        assertMessage(
                "agent not built: " + dir.resolve("native-sigprof/target/libompprof.so") + "; run make",
                () -> Toolchain.agent(k -> k.equals(Toolchain.ROOT_PROPERTY) ? dir.toString() : null, dir));
    }

    @Test
    void commandLinesAreQuotedForTheShell() {
        assertEquals("./app 4 'a b' 'it'\\''s' ''", ShellQuote.join(List.of("./app", "4", "a b", "it's", "")));
    }

    @Test
    void progressFormatting() {
        assertEquals(
                "ompprof: recorded 4 threads, 12,800 samples (0 dropped) in 3.21 s -> app.ompprof (2.1 MB)",
                Progress.summary(4, 12_800, 0, 3.2149, "app.ompprof", 2_100_000));
        assertEquals("1 thread", Progress.plural(1, "thread"));
        assertEquals("999 B", Progress.size(999));
    }

    interface Call {
        void run() throws Exception;
    }

    private static void assertMessage(String expected, Call call) {
        UserError e = assertThrows(UserError.class, call::run);
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
