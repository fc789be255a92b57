package org.ompprof.ui;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/** Which Debian package owns a file, as {@code dpkg -S PATH} says; empty where there is no dpkg or no owner. */
final class DebianPackages {
    private static final Path DPKG = Path.of("/usr/bin/dpkg");

    private DebianPackages() {}

    static Optional<String> owner(String path) {
        if (!path.startsWith("/") || !Files.isExecutable(DPKG)) return Optional.empty();
        try {
            List<String> cmd = new ArrayList<>(List.of(DPKG.toString(), "-S"));
            cmd.addAll(spellings(path));
            Process p = new ProcessBuilder(cmd)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return Optional.empty();
            }
            return parse(out); // dpkg fails when one spelling is unknown, yet prints the owner of the others
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /**
     * The names dpkg may know the file by: as mapped, resolved (symlinks, {@code .so} versions),
     * and under {@code /usr} for the merged {@code /lib} and {@code /bin}; asked in one {@code dpkg -S}.
     */
    static Set<String> spellings(String path) {
        Set<String> out = new LinkedHashSet<>(List.of(path));
        try {
            String real = Path.of(path).toRealPath().toString();
            out.add(real);
            if (real.startsWith("/lib") || real.startsWith("/bin") || real.startsWith("/sbin")) out.add("/usr" + real);
        } catch (IOException | java.nio.file.InvalidPathException e) {
            // the file is gone: its name as mapped is all there is
        }
        if (path.startsWith("/lib") || path.startsWith("/bin") || path.startsWith("/sbin")) out.add("/usr" + path);
        return out;
    }

    /** {@code libfoo1:amd64: /usr/lib/x86_64-linux-gnu/libfoo.so.1} gives {@code libfoo1}; diversions are skipped. */
    static Optional<String> parse(String dpkgOutput) {
        for (String line : dpkgOutput.lines().toList()) {
            int colon = line.indexOf(": ");
            if (colon <= 0
                    || line.startsWith("diversion by")
                    || !line.substring(colon + 2).startsWith("/")) continue;
            String pkg = line.substring(0, colon).split(",")[0].trim();
            int arch = pkg.indexOf(':');
            return Optional.of(arch > 0 ? pkg.substring(0, arch) : pkg);
        }
        return Optional.empty();
    }
}
