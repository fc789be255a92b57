package org.ompprof.sampler.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.ompprof.sampler.UserError;

/**
 * How the program is started so that it sees what it would without ompprof: the argv the user
 * typed (argv[0] included), the environment (beyond the tool's own variables), and the signal
 * dispositions and mask of the shell that ran {@code ompprof}.
 *
 * <p>The JVM spawns with argv[0] as the file to run, searching its own PATH for a name without a
 * slash, as the shell would: the typed command is passed unchanged. What the JVM cannot pass on:
 * signals the user's shell ignored or blocked (the JVM handles SIGPIPE, SIGUSR2, SIGSEGV & co.
 * itself, and spawns with an empty mask). The {@code ompprof} script reads both masks before the
 * JVM starts ({@link #IGNORED_PROPERTY}, {@link #BLOCKED_PROPERTY}); when the JVM lost any of them,
 * the program is started through {@code ompprof-exec} (next to the agent), which restores them and
 * execs the program with the typed argv[0].
 *
 * @param command what the JVM starts
 * @param helper whether that is {@code ompprof-exec}
 */
record ProgramStart(List<String> command, boolean helper, boolean shellLevelWasUnset) {
    static final String IGNORED_PROPERTY = "ompprof.signals.ignored";
    static final String BLOCKED_PROPERTY = "ompprof.signals.blocked";
    /** Set by the script when bash made up SHLVL (it was unset): the program gets no SHLVL. */
    static final String SHLVL_UNSET_PROPERTY = "ompprof.env.shlvl-unset";

    static final String HELPER = "ompprof-exec";
    /**
     * glibc's own signals 32 and 33 (thread cancellation, set*id), which the JVM's posix_spawn leaves
     * ignored in the child when the JVM handles them (and it does): only ompprof-exec puts them back.
     */
    static final long SPAWN_IGNORES = 0x1_8000_0000L;

    ProgramStart {
        command = List.copyOf(command);
    }

    /**
     * @param typed the command as typed; {@code program} its resolved executable
     * @param childPath the PATH the program gets; the JVM searches its own ({@code jvmPath})
     */
    static ProgramStart plan(
            List<String> typed,
            Path program,
            Path agent,
            Function<String, String> properties,
            String childPath,
            String jvmPath,
            Path procStatus) {
        // without the script's word (the jar run directly, tests) the shell's state is unknown: the JVM's stays
        boolean known = properties.apply(IGNORED_PROPERTY) != null && properties.apply(BLOCKED_PROPERTY) != null;
        long spawned = jvmIgnored(procStatus) | SPAWN_IGNORES; // what the program gets without the helper
        long ignored = known ? mask(properties.apply(IGNORED_PROPERTY), 0) : spawned;
        long blocked = mask(properties.apply(BLOCKED_PROPERTY), 0);
        boolean shlvlUnset = Boolean.parseBoolean(properties.apply(SHLVL_UNSET_PROPERTY));
        boolean jvmFindsOther = !typed.getFirst().contains("/") && !Objects.equals(childPath, jvmPath);
        boolean signalsLost = blocked != 0 || ignored != spawned;
        if (!jvmFindsOther && !signalsLost) return new ProgramStart(typed, false, shlvlUnset);
        Path helper = agent.resolveSibling(HELPER);
        if (!Files.isExecutable(helper)) throw new UserError("agent not built: " + helper + " is missing; run make");
        List<String> cmd = new ArrayList<>(
                List.of(helper.toString(), Long.toHexString(ignored), Long.toHexString(blocked), program.toString()));
        cmd.addAll(typed);
        return new ProgramStart(cmd, true, shlvlUnset);
    }

    /** The environment as the user's shell had it: bash made SHLVL up when it was unset. */
    void adjust(Map<String, String> env) {
        if (shellLevelWasUnset && "0".equals(env.get("SHLVL"))) env.remove("SHLVL");
    }

    /** The signals this JVM ignores (SigIgn of /proc/self/status); the program inherits those. */
    static long jvmIgnored(Path procStatus) {
        try {
            for (String line : Files.readAllLines(procStatus)) {
                if (line.startsWith("SigIgn:")) return mask(line.substring(7).strip(), 0);
            }
        } catch (IOException e) {
            // no /proc: nothing known to restore
        }
        return 0;
    }

    private static long mask(String hex, long otherwise) {
        if (hex == null || hex.isBlank()) return otherwise;
        try {
            return Long.parseUnsignedLong(hex.strip().replaceFirst("^0[xX]", ""), 16);
        } catch (NumberFormatException e) {
            throw new UserError("bad signal mask '" + hex + "' (from -D" + IGNORED_PROPERTY + " or -D"
                    + BLOCKED_PROPERTY + "); start ompprof through its script");
        }
    }
}
