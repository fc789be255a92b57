package org.ompprof.unwinder.image;

import org.ompprof.unwinder.stack.Module;

/** The outcome of looking for a module's image: a module to unwind with, or why there is none. */
public sealed interface ImageResolution {
    ModuleImage request();

    record Resolved(ModuleImage request, LoadedImage image, Module module) implements ImageResolution {}

    /** Frames in this module cannot be unwound through or symbolized; {@code reason} says why. */
    record Unavailable(ModuleImage request, String reason) implements ImageResolution {}
}
