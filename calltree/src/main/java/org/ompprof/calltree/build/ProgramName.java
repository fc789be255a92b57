package org.ompprof.calltree.build;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Fortran main program's name from its debug info (llvm-symbolizer {@code --functions=short}): one process per
 * program, not per frame.
 */
final class ProgramName {
    private ProgramName() {}

    /**
     * The short (source) name of the function at {@code pc} of {@code file}; null when unknown, {@code MAIN__} or
     * anything goes wrong.
     */
    static String ask(Path llvmSymbolizer, Path file, long pc) {
        try {
            Process p = new ProcessBuilder(List.of(
                            llvmSymbolizer.toString(),
                            "--functions=short",
                            "--no-inlines",
                            "--obj=" + file,
                            "0x" + Long.toHexString(pc)))
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            p.getOutputStream().close();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            String first = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .findFirst()
                    .orElse("")
                    .strip();
            return valid(first) ? first : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * A Fortran name: a letter, then letters, digits and underscores (not llvm-symbolizer's {@code ??}, not {@code
     * MAIN__}).
     */
    static boolean valid(String name) {
        return name != null
                && !name.isEmpty()
                && !name.equals("MAIN__")
                && Character.isLetter(name.charAt(0))
                && name.chars().allMatch(ch -> ch < 128 && (Character.isLetterOrDigit(ch) || ch == '_'));
    }
}
