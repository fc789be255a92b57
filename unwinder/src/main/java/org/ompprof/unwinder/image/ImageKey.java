package org.ompprof.unwinder.image;

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
}
