package org.ompprof.sampler.recording;

import java.nio.file.Path;
import org.ompprof.sampler.UserError;

/** A recording file that cannot be read; the message names the file and, where known, the offset. */
public final class RecordingFormatException extends UserError {
    private static final long serialVersionUID = 1L;
    private final long offset;

    public RecordingFormatException(Path file, long offset, String message) {
        super(file + ": " + message);
        this.offset = offset;
    }

    static RecordingFormatException truncated(Path file, long offset) {
        return new RecordingFormatException(file, offset, "truncated at offset " + offset + "; the file is incomplete");
    }

    static RecordingFormatException corrupt(Path file, long offset, String why) {
        return new RecordingFormatException(
                file, offset, "corrupt section at offset " + offset + " (" + why + "); the file is damaged");
    }

    /** The byte offset in the file where the problem was found, or -1. */
    public long offset() {
        return offset;
    }
}
