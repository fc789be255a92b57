package org.ompprof.unwinder.image;

import java.nio.file.Path;

/** Where the bytes of a loaded image came from, so tools that want a file (llvm-symbolizer) can get one. */
public sealed interface ImageOrigin {
    /** A file on disk verified to be the image the program loaded. */
    record OnDisk(Path path) implements ImageOrigin {}

    /** Bytes with no trustworthy file behind them (embedded in a recording). */
    record InMemory(byte[] bytes) implements ImageOrigin {
        @Override
        public String toString() {
            return "InMemory[" + bytes.length + " bytes]";
        }
    }
}
