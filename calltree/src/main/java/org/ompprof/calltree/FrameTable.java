package org.ompprof.calltree;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.collections.impl.map.mutable.primitive.ObjectIntHashMap;

/**
 * Interns frames to dense int ids (0, 1, 2, ...), so a tree stores a frame as one int and
 * compares contexts by int. Not thread-safe: intern from one thread, or synchronize.
 */
public final class FrameTable {
    private final ObjectIntHashMap<Frame> ids = new ObjectIntHashMap<>();
    private final List<Frame> frames = new ArrayList<>();

    /** The id of {@code frame}, assigning the next free one on first sight. */
    public int intern(Frame frame) {
        int next = frames.size();
        int id = ids.getIfAbsentPut(frame, next);
        if (id == next) frames.add(frame);
        return id;
    }

    /** The id of {@code frame}, or -1 when it was never interned. */
    public int find(Frame frame) {
        return ids.getIfAbsent(frame, -1);
    }

    /**
     * Puts {@code frame} in place of frame {@code id}, which keeps its id (a new name for a frame
     * already in trees). False, changing nothing, when {@code frame} is already another id's.
     */
    public boolean replace(int id, Frame frame) {
        Frame old = frames.get(id);
        if (old.equals(frame)) return true;
        if (ids.containsKey(frame)) return false;
        ids.remove(old);
        ids.put(frame, id);
        frames.set(id, frame);
        return true;
    }

    public Frame frame(int id) {
        return frames.get(id);
    }

    public int size() {
        return frames.size();
    }

    /** Interns every frame of {@code other}; element i of the result is this table's id for other's frame i. */
    public int[] importAll(FrameTable other) {
        int[] map = new int[other.size()];
        for (int i = 0; i < map.length; i++) map[i] = intern(other.frame(i));
        return map;
    }
}
