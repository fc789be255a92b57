package org.ompprof.unwinder.image;

import java.util.Objects;

/**
 * What makes two module descriptions the same image. With a build id, path and id suffice
 * (the size is kept because a stripped and an unstripped copy share the id); without one, the
 * file's size and mtime stand in for it.
 */
record ImageKey(boolean embedded, String path, String buildId, long fileSize, long mtimeNs) {
    static ImageKey of(ModuleImage m) {
        if (m.hasBuildId())
            return new ImageKey(m.isEmbedded(), m.path(), m.buildId(), m.isEmbedded() ? m.fileSize() : 0, 0);
        return new ImageKey(m.isEmbedded(), m.path(), "", m.fileSize(), m.mtimeNs());
    }

    // Written out, not the record's own: those link through method handles at their first call (15 ms of every build)

    @Override
    public boolean equals(Object o) {
        return o instanceof ImageKey k
                && embedded == k.embedded
                && fileSize == k.fileSize
                && mtimeNs == k.mtimeNs
                && path.equals(k.path)
                && buildId.equals(k.buildId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(embedded, path, buildId, fileSize, mtimeNs);
    }
}
