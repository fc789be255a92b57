package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The program runs exactly as without ompprof: what_i_see prints its argv, its environment and
 * the signals it finds ignored or blocked (glibc's own 32 and 33 too, from the kernel's view),
 * at the start of main and after an OpenMP region, and whether malloc grows the heap with brk. Run
 * plain and recorded from the same shell, it prints the same, apart from the two variables that
 * load the tool, and exits with the same status (7).
 */
class FidelityEndToEndTest {
    /** The variables loading the tool needs, and nothing else. */
    private static final List<String> TOOL_VARIABLES = List.of("OMPPROF_SHM=", "OMP_TOOL_LIBRARIES=");
    /** The shell ignores these, as nohup, CI runners and `cmd &` do; the JVM takes over USR2 and PIPE for itself. */
    private static final String SHELL = "trap '' HUP USR2 PIPE; ";
    /**
     * A terminal's shell under nohup: HUP ignored, which the JVM leaves so, and nothing it takes over,
     * so that the launcher would need no helper if glibc's own signals did not need one.
     */
    private static final String TERMINAL = "trap '' HUP; ";

    private static final Path ROOT = Path.of(System.getProperty("ompprof.root"));

    @TempDir
    Path dir;

    private record Seen(int status, String out) {}

    /** `sh -c 'SHELL; exec COMMAND'` in dir (which holds what_i_see, also on PATH), recorded or not. */
    private Seen run(List<String> command, boolean recorded, boolean blocking, boolean terminal) throws Exception {
        Path program = dir.resolve("what_i_see");
        if (!Files.exists(program)) Files.copy(CPrograms.clang("what_i_see"), program);
        Map<String, String> env = Map.of(
                "PATH", dir + ":/usr/bin:/bin", "OMP_NUM_THREADS", "2", "MY_VAR", "a b=c", "PWD", dir.toString());
        String shell = terminal ? TERMINAL : SHELL;
        List<String> sh = new ArrayList<>();
        if (terminal) sh.add(CPrograms.plain("terminal_exec").toString()); // 32 and 33 at their default
        if (blocking) sh.add(CPrograms.plain("blocked_exec").toString()); // USR1, TERM and WINCH blocked
        sh.addAll(List.of("/bin/sh", "-c"));
        if (recorded) {
            // as the ompprof script does: the shell's signal state goes to the launcher
            sh.add(shell + "java=$1; shift; exec \"$java\" $(\"$0\") \"$@\"");
            sh.add(ROOT.resolve("scripts/signal-state").toString());
            List<String> args = new ArrayList<>(
                    List.of("record", "-o", dir.resolve("run.ompprof").toString(), "--"));
            args.addAll(command);
            Process p = Ompprof.start(dir, withOnly(env), sh, args);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS));
            Ompprof.Result r = Ompprof.result(dir, p.exitValue());
            assertTrue(r.err().contains("ompprof: recorded"), r.err());
            return new Seen(
                    r.status(),
                    String.join(
                            "\n",
                            r.out()
                                    .lines()
                                    .filter(l -> TOOL_VARIABLES.stream().noneMatch(v -> l.contains(" env " + v)))
                                    .toList()));
        }
        sh.add(shell + "exec \"$@\"");
        sh.add("sh");
        sh.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(sh).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new Seen(p.exitValue(), String.join("\n", out.lines().toList()));
    }

    /** Whether this JVM runs with SIGINT ignored, which the shells it starts inherit. */
    private static boolean sigIntIgnoredHere() throws java.io.IOException {
        String mask = Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("SigIgn:"))
                .findFirst()
                .orElseThrow()
                .substring("SigIgn:".length())
                .trim();
        return (Long.parseUnsignedLong(mask, 16) & 0x2L) != 0;
    }

    /** The test JVM's environment replaced by {@code env} (a null value unsets a variable in Ompprof.start). */
    private static Map<String, String> withOnly(Map<String, String> env) {
        Map<String, String> all = new java.util.HashMap<>();
        System.getenv().keySet().forEach(k -> all.put(k, null));
        all.putAll(env);
        return all;
    }

    private void sameAsPlain(List<String> command, String argv0, boolean blocking, boolean terminal) throws Exception {
        Seen plain = run(command, false, blocking, terminal);
        Seen recorded = run(command, true, blocking, terminal);
        assertEquals(7, plain.status(), plain.out());
        assertTrue(plain.out().contains("start argv[0]=" + argv0 + "\n"), plain.out());
        for (String sig : terminal ? List.of("1") : List.of("1", "12", "13"))
            assertTrue(plain.out().contains("start signal " + sig + " ignored"), plain.out());
        if (blocking) {
            for (String sig : List.of("10", "15", "28"))
                assertTrue(plain.out().contains("start signal " + sig + " blocked"), plain.out());
        }
        // glibc's own 32 and 33 (no name in a shell): ignored where a JVM started the shell, at their
        // default where a terminal's shell did (terminal_exec); the kernel's SigIgn shows them
        // and SIGINT where this suite was started with it ignored (a background job of a non-interactive shell)
        String ignored = String.format("%016x", (terminal ? 0x1L : 0x180001801L) | (sigIntIgnoredHere() ? 0x2L : 0));
        assertTrue(plain.out().contains("start SigIgn:\t" + ignored), plain.out());
        assertTrue(plain.out().contains("heap grows with brk: yes"), plain.out());
        assertEquals(withoutSetxid(plain.out()), withoutSetxid(recorded.out()));
        assertEquals(plain.status(), recorded.status());
    }

    /**
     * The output with glibc's SIGSETXID (33) left out of the mask the program saw at its start: glibc sets its handler
     * when a process creates its first thread, which the agent's wall sampler is when the agent starts with the
     * program (the program's own first region does the same a moment later). The rest of the mask is compared.
     */
    private static String withoutSetxid(String out) {
        return out.lines()
                .map(l -> l.startsWith("start SigIgn:\t")
                        ? String.format(
                                "start SigIgn:\t%016x",
                                Long.parseUnsignedLong(
                                                l.substring("start SigIgn:\t".length())
                                                        .trim(),
                                                16)
                                        & ~(1L << 32))
                        : l)
                .collect(java.util.stream.Collectors.joining("\n"));
    }

    @Test
    void aNameFoundInPathIsArgv0AsTyped() throws Exception {
        sameAsPlain(List.of("what_i_see", "one", "two words"), "what_i_see", false, false);
    }

    @Test
    void aRelativePathIsArgv0AsTypedAndBlockedSignalsStayBlocked() throws Exception {
        sameAsPlain(List.of("./what_i_see", "x"), "./what_i_see", true, false);
    }

    /** The JVM's spawn ignores glibc's own 32 and 33 in the program; from a terminal they are at their default. */
    @Test
    void glibcsOwnSignalsStayAsATerminalsShellHasThem() throws Exception {
        sameAsPlain(List.of("what_i_see"), "what_i_see", false, true);
    }
}
