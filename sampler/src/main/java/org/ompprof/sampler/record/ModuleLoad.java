package org.ompprof.sampler.record;

import java.lang.foreign.MemorySegment;
import java.util.List;
import org.ompprof.sampler.wire.Wire;

/**
 * A module (executable, shared library, vDSO) is mapped. {@code image} holds the inline image
 * of the vDSO and is empty otherwise.
 *
 * @param flags {@code Wire.MOD_*}
 * @param fd the fd the agent holds open on the file in the program, -1 if none
 * @param buildId the GNU build id as lowercase hex, empty if none
 */
public record ModuleLoad(
        int threadSeq,
        long timeNs,
        long moduleId,
        long loadBias,
        long ehFrameHdr,
        long dev,
        long ino,
        long fileSize,
        long mtimeNs,
        int flags,
        int fd,
        List<ModuleSegment> segments,
        String path,
        String buildId,
        MemorySegment image)
        implements WireRecord {
    public ModuleLoad {
        segments = List.copyOf(segments);
        image = image.isReadOnly() ? image : image.asReadOnly();
    }

    public boolean has(int flag) {
        return (flags & flag) != 0;
    }

    @Override
    public int type() {
        return Wire.REC_MODULE;
    }
}
