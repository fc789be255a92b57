package org.ompprof.unwinder.image;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.stack.Module;

/**
 * Turns module descriptions into modules to unwind with, sharing one parsed image and its CFI
 * (with its row cache) among every recording and thread that loaded the same file. An image is
 * read once even when many threads ask for it at the same time; an unavailable one is
 * remembered too, so it is not searched for again. Thread-safe.
 */
public final class ModuleImages implements ImageOrigins {
    private final Map<ImageKey, FutureTask<ImageLoader.Outcome>> loads = new ConcurrentHashMap<>();
    private final Map<ElfFile, ImageOrigin> origins = new ConcurrentHashMap<>();

    /** Never throws for bad or missing images: those become {@link ImageResolution.Unavailable}. */
    public ImageResolution resolve(ModuleImage request) {
        ImageLoader.Outcome outcome = load(request);
        if (outcome.image() == null) return new ImageResolution.Unavailable(request, outcome.reason());
        LoadedImage image = outcome.image();
        Module module = Module.of(request.path(), image.elf(), request.loadBias(), image.cfi());
        return new ImageResolution.Resolved(request, image, module);
    }

    private ImageLoader.Outcome load(ModuleImage request) {
        FutureTask<ImageLoader.Outcome> fresh = new FutureTask<>(() -> remember(ImageLoader.load(request)));
        FutureTask<ImageLoader.Outcome> task = loads.putIfAbsent(ImageKey.of(request), fresh);
        if (task == null) {
            task = fresh;
            task.run(); // outside the map's locks: reading a large file must not stall other keys
        }
        return await(task, request);
    }

    private ImageLoader.Outcome remember(ImageLoader.Outcome outcome) {
        if (outcome.image() != null)
            origins.put(outcome.image().elf(), outcome.image().origin());
        return outcome;
    }

    private static ImageLoader.Outcome await(FutureTask<ImageLoader.Outcome> task, ModuleImage request) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return task.get();
                } catch (InterruptedException e) {
                    interrupted = true; // another thread is loading it; finish waiting, then pass the interrupt on
                }
            }
        } catch (ExecutionException e) {
            return ImageLoader.Outcome.unavailable("loading " + request.path() + " failed: " + e.getCause());
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    /** Where the image of a module this instance resolved came from. */
    @Override
    public Optional<ImageOrigin> originOf(Module module) {
        return Optional.ofNullable(origins.get(module.elf()));
    }

    /** Images loaded or found unavailable so far. */
    public int size() {
        return loads.size();
    }
}
