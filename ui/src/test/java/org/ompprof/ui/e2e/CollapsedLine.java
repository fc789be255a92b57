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
}
