package org.ompprof.sampler.launch;

import java.io.IOException;
import java.nio.file.Path;

/**
 * What becomes of the raw recording when the program has ended: the stages after the sampler
 * (unwinding, stitching, the calling-context tree) turn it into the profile the user asked for.
 */
@FunctionalInterface
public interface RecordingFinisher {
    /**
     * Writes {@code output} from the raw recording at {@code raw} (which the recorder removes
     * afterwards unless asked to keep it). Returns the size of {@code output}.
     */
    long finish(Path raw, Path output) throws IOException;
}
