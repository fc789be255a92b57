package org.ompprof.sampler.launch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.ompprof.sampler.UserError;

/**
 * Where the recording goes, checked before anything runs so that a long run never ends in
 * "cannot write".
 *
 * @param path absolute
 * @param shown as the user will recognise it in messages
 */
public record OutputTarget(Path path, String shown) {
    static final String EXTENSION = ".ompprof";

    /** The requested name, or the program's, made this rank's own when the program runs in an MPI job. */
    static OutputTarget choose(Optional<String> requested, Path program, Path cwd, Optional<JobRank> rank) {
        if (requested.isPresent() && requested.get().equals("-")) {
            throw new UserError("record: -o - cannot be standard output, which the program writes to; give a file name "
                    + "(ompprof export -o - streams it afterwards)");
        }
        return of(JobRank.outputName(requested.orElse(program.getFileName() + EXTENSION), rank), cwd);
    }

    /** The file {@code shown} names relative to {@code cwd}, if a new file can be written there. */
    public static OutputTarget of(String shown, Path cwd) {
        Path path = cwd.resolve(shown).normalize();
        if (shown.endsWith("/") || Files.isDirectory(path)) throw new UserError("output is a directory: " + shown);
        if (Files.exists(path) && !Files.isRegularFile(path))
            throw new UserError("output is not a regular file: " + shown);
        Path dir = path.getParent();
        if (!Files.isDirectory(dir)) throw new UserError("output directory does not exist: " + dir);
        if (!Files.isWritable(dir)) throw new UserError("cannot write to the output directory: " + dir);
        return new OutputTarget(path, shown);
    }
}
