package org.ompprof.ui.e2e;

import java.util.List;

/**
 * One line of {@code ompprof export --format collapsed}: the path, root first, and its weight (samples, or ns with a
 * time metric).
 */
record CollapsedLine(List<String> frames, long weight) {
    static CollapsedLine of(String line) {
        int space = line.lastIndexOf(' ');
        return new CollapsedLine(
                List.of(line.substring(0, space).split(";")), Long.parseLong(line.substring(space + 1)));
    }

    /** Every line of an export's output. */
    static List<CollapsedLine> all(String out) {
        return out.lines().map(CollapsedLine::of).toList();
    }

    /** The weight in milliseconds, for a time metric's nanoseconds. */
    double ms() {
        return weight / 1e6;
    }

    /** Milliseconds in a path's leaf, and those of them whose path to the leaf is that path. */
    record LeafTime(double inLeaf, double placed) {}

    /** Of an export of a time metric: the time in {@code path}'s last frame, and the part of it under {@code path}. */
    static LeafTime leafTime(String out, List<String> path) {
        String leaf = path.getLast();
        double inLeaf = 0, placed = 0;
        for (CollapsedLine line : all(out)) {
            int at = line.frames().indexOf(leaf);
            if (at < 0) continue;
            inLeaf += line.ms();
            if (line.frames().subList(0, at + 1).equals(path)) placed += line.ms();
        }
        return new LeafTime(inLeaf, placed);
    }
}
