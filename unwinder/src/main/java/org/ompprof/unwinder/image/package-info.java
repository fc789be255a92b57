/**
 * Finding the image of each recorded module: the copy embedded in the recording, else the
 * file it was loaded from if it is still the same one (same build id, or same size and mtime
 * when it has none), else a reason why it is unavailable. Parsed images and their CFI are
 * shared across recordings and threads.
 *
 * <p>Usage: one {@link org.ompprof.unwinder.image.ModuleImages} per analysis session;
 * {@code images.resolve(ModuleImage.onDisk(path, buildId, size, mtimeNs, bias))} gives a
 * {@link org.ompprof.unwinder.image.ImageResolution.Resolved} with a
 * {@link org.ompprof.unwinder.stack.Module} for the unwinder, or an
 * {@link org.ompprof.unwinder.image.ImageResolution.Unavailable} with the reason.
 */
package org.ompprof.unwinder.image;
