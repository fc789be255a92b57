package org.ompprof.unwinder.image;

import java.util.Locale;

/**
 * What a recording says about one loaded module, enough to find its image again.
 *
 * @param path the path the program loaded it from
 * @param buildId GNU build id as lowercase hex, empty if it has none
 * @param fileSize and {@code mtimeNs}: identify the file when there is no build id
 * @param loadBias runtime address minus ELF vaddr
 * @param embedded the image copied into the recording, or null if it was left on disk
 */
public record ModuleImage(
        String path, String buildId, long fileSize, long mtimeNs, long loadBias, ImageBytes embedded) {
    public ModuleImage {
        if (path == null) throw new NullPointerException("path");
        buildId = buildId == null ? "" : buildId.toLowerCase(Locale.ROOT);
    }

    public static ModuleImage onDisk(String path, String buildId, long fileSize, long mtimeNs, long loadBias) {
        return new ModuleImage(path, buildId, fileSize, mtimeNs, loadBias, null);
    }

    public static ModuleImage embedded(
            String path, String buildId, long fileSize, long mtimeNs, long loadBias, ImageBytes bytes) {
        if (bytes == null) throw new NullPointerException("bytes");
        return new ModuleImage(path, buildId, fileSize, mtimeNs, loadBias, bytes);
    }

    public boolean isEmbedded() {
        return embedded != null;
    }

    public boolean hasBuildId() {
        return !buildId.isEmpty();
    }
}
