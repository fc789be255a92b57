package org.ompprof.sampler.recording;

import java.util.List;
import org.ompprof.sampler.record.ModuleSegment;

/**
 * A module the program loaded, with what the recording holds of its image.
 *
 * @param flags {@code Wire.MOD_*}
 * @param imagePath where a REFERENCE image lives (symlinks resolved), empty otherwise
 * @param imageLength bytes of the embedded image (0 unless EMBEDDED)
 * @param unloadNs 0 if it stayed loaded
 * @param note why the image is missing, or empty
 */
public record ModuleInfo(
        long moduleId,
        String path,
        int flags,
        long loadBias,
        long ehFrameHdr,
        long dev,
        long ino,
        long fileSize,
        long mtimeNs,
        String buildId,
        List<ModuleSegment> segments,
        long loadNs,
        long unloadNs,
        ImageSource image,
        String imagePath,
        long imageLength,
        String note) {
    public ModuleInfo {
        segments = List.copyOf(segments);
    }

    public boolean has(int flag) {
        return (flags & flag) != 0;
    }

    public ModuleInfo withImage(ImageSource source, String where, long length, String why) {
        return new ModuleInfo(
                moduleId,
                path,
                flags,
                loadBias,
                ehFrameHdr,
                dev,
                ino,
                fileSize,
                mtimeNs,
                buildId,
                segments,
                loadNs,
                unloadNs,
                source,
                where,
                length,
                why);
    }

    public ModuleInfo withUnload(long ns) {
        return new ModuleInfo(
                moduleId,
                path,
                flags,
                loadBias,
                ehFrameHdr,
                dev,
                ino,
                fileSize,
                mtimeNs,
                buildId,
                segments,
                loadNs,
                ns,
                image,
                imagePath,
                imageLength,
                note);
    }
}
