package org.ompprof.ui.report;

import org.ompprof.calltree.CallingContextTree;

/** How the report names contexts. */
final class Names {
    private Names() {}

    /** The full path, root first: {@code main;heavy_phase;work_units}. */
    static String path(CallingContextTree tree, int node) {
        StringBuilder b = new StringBuilder();
        for (int n : tree.pathToRoot(node)) {
            if (n == CallingContextTree.ROOT) continue;
            b.insert(0, tree.frameOf(n).name()).insert(0, ';');
        }
        return b.length() == 0 ? "<root>" : b.substring(1);
    }

    /** {@code work_units() called from heavy_phase()}: the user-level function and its caller. */
    static String call(CallingContextTree tree, int node) {
        String f = tree.frameOf(node).name();
        int parent = tree.parent(node);
        String fn = f.startsWith("<") ? f : f + "()";
        if (parent == CallingContextTree.ROOT) return fn;
        String caller = tree.frameOf(parent).name();
        return fn + " called from " + (caller.startsWith("<") ? caller : caller + "()");
    }
}
