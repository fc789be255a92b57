package org.ompprof.ui.report;

import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.profile.MutexTable;

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

    /** {@code imbalance.c:26}: a source file's base name and the line, if known; null without a file. */
    static String site(String file, int line) {
        if (file == null) return null;
        return file.substring(file.lastIndexOf('/') + 1) + (line > 0 ? ":" + line : "");
    }

    /** {@code lock `a` at two_locks.c:28}, {@code critical at q.c:156}: the kind, the name if known, where it is entered. */
    static String mutex(MutexTable.Row m) {
        String site = site(m.siteFile(), m.siteLine());
        return m.metric().substring(m.metric().indexOf('.') + 1) + (m.name().isEmpty() ? "" : " `" + m.name() + "`")
                + (site == null ? "" : " at " + site);
    }

    /**
     * {@code work_units() called from heavy_phase()}: the user-level function and its caller
     * ({@code ()} added to plain function names only: not to {@code <placeholders>}, C++ names that
     * have their parameters, or constructs such as {@code parallel at heat.c:27}).
     */
    static String call(CallingContextTree tree, int node) {
        String fn = function(tree.frameOf(node).name());
        int parent = tree.parent(node);
        if (parent == CallingContextTree.ROOT) return fn;
        return fn + " called from " + function(tree.frameOf(parent).name());
    }

    private static String function(String name) {
        return name.startsWith("<") || name.indexOf('(') >= 0 || name.indexOf(' ') >= 0 ? name : name + "()";
    }
}
