package org.ompprof.ui.view;

import java.util.StringJoiner;
import org.ompprof.calltree.CallingContextTree;

/** A context as one line: its frames' names, outermost first. */
final class Paths {
    private Paths() {}

    static String text(CallingContextTree tree, int node) {
        if (node <= 0) return "<no context>";
        StringJoiner s = new StringJoiner(" > ");
        for (int f : tree.framePath(node)) s.add(tree.frames().frame(f).name());
        return s.toString();
    }
}
