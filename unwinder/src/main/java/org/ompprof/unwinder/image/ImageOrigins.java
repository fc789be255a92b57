package org.ompprof.unwinder.image;

import java.util.Optional;
import org.ompprof.unwinder.stack.Module;

/** Finds where a module's image bytes came from. */
@FunctionalInterface
public interface ImageOrigins {
    /** Empty if unknown: then only what the parsed image holds (its symbol tables) can be used. */
    Optional<ImageOrigin> originOf(Module module);

    /** Takes a module's name as its path, if that file is the module's image (see {@link ModuleNameOrigins}). */
    static ImageOrigins byModuleName() {
        return new ModuleNameOrigins();
    }

    /** This, else {@code other}. */
    default ImageOrigins orElse(ImageOrigins other) {
        return m -> originOf(m).or(() -> other.originOf(m));
    }
}
