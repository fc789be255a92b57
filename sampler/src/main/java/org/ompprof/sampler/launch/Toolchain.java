package org.ompprof.sampler.launch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.ompprof.sampler.UserError;

/** Where the agent and LLVM's libomp are, from system properties or the usual places. */
final class Toolchain {
    static final String AGENT_PROPERTY = "ompprof.agent";
    static final String ROOT_PROPERTY = "ompprof.root";
    static final String LIBOMP_PROPERTY = "ompprof.libomp";
    static final String AGENT_IN_TREE = "native-sigprof/target/libompprof.so";
    static final List<Path> LIBOMP_PLACES =
            List.of(Path.of("/usr/lib/llvm-19/lib/libomp.so.5"), Path.of("/usr/lib/x86_64-linux-gnu/libomp.so.5"));

    private Toolchain() {}

    /** The agent library, absolute; it must exist. */
    static Path agent(Function<String, String> properties, Path cwd) {
        String explicit = properties.apply(AGENT_PROPERTY);
        String root = properties.apply(ROOT_PROPERTY);
        Path agent = explicit != null && !explicit.isBlank()
                ? Path.of(explicit)
                : Path.of(root != null && !root.isBlank() ? root : ".").resolve(AGENT_IN_TREE);
        agent = cwd.resolve(agent).normalize();
        if (!Files.isRegularFile(agent)) throw new UserError("agent not built: " + agent + "; run make");
        return agent;
    }

    /** LLVM's libomp, to stand in for libgomp. */
    static Path libomp(Function<String, String> properties) {
        String explicit = properties.apply(LIBOMP_PROPERTY);
        if (explicit != null && !explicit.isBlank()) {
            Path p = Path.of(explicit).toAbsolutePath();
            if (!Files.isRegularFile(p))
                throw new UserError("libomp not found: " + p + " (from -D" + LIBOMP_PROPERTY + ")");
            return p;
        }
        for (Path p : LIBOMP_PLACES) if (Files.isRegularFile(p)) return p;
        throw new UserError("this GCC OpenMP program needs LLVM's libomp to be profiled, and "
                + LIBOMP_PLACES.getFirst() + " is missing; install it with: sudo apt-get install libomp-19-dev");
    }
}
