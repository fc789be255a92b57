package org.ompprof.ui;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Which Debian package owns a file, as {@code dpkg -S PATH} says; empty where there is no dpkg or no owner. */
final class DebianPackages {
    private static final Path DPKG = Path.of("/usr/bin/dpkg");

    private DebianPackages() {}

    static Optional<String> owner(String path) {
        if (!path.startsWith("/") || !Files.isExecutable(DPKG)) return Optional.empty();
        try {
            Process p = new ProcessBuilder(DPKG.toString(), "-S", path).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return Optional.empty();
            }
            return p.exitValue() == 0 ? parse(out) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** {@code libfoo1:amd64: /usr/lib/x86_64-linux-gnu/libfoo.so.1} gives {@code libfoo1}; diversions are skipped. */
    static Optional<String> parse(String dpkgOutput) {
        for (String line : dpkgOutput.lines().toList()) {
            int colon = line.indexOf(": ");
            if (colon <= 0 || line.startsWith("diversion by") || !line.substring(colon + 2).startsWith("/")) continue;
            String pkg = line.substring(0, colon).split(",")[0].trim();
            int arch = pkg.indexOf(':');
            return Optional.of(arch > 0 ? pkg.substring(0, arch) : pkg);
        }
        return Optional.empty();
    }
}
