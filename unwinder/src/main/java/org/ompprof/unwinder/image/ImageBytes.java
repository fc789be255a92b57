package org.ompprof.unwinder.image;

import java.io.IOException;

/** The bytes of an image embedded in a recording, read only when no cached copy serves. */
@FunctionalInterface
public interface ImageBytes {
    byte[] read() throws IOException;

    static ImageBytes of(byte[] bytes) {
        return () -> bytes;
    }
}
