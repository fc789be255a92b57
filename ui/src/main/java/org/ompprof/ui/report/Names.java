package org.ompprof.ui.report;

import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.build.DisplayNames;
import org.ompprof.calltree.profile.LineTable;
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

    /**
     * {@code lock `a` at two_locks.c:28}, {@code critical at q.c:156}: the kind, the name if known, where it is
     * entered.
     */
    static String mutex(MutexTable.Row m) {
        String site = site(m.siteFile(), m.siteLine());
        return m.metric().substring(m.metric().indexOf('.') + 1)
                + (m.name().isEmpty() ? "" : " `" + m.name() + "`")
                + (site == null ? "" : " at " + site);
    }

    /**
     * {@code work_units() called from heavy_phase() at app.c:40}: the user-level function and its caller, as
     * a sentence names them: a C++ function by its qualified name without its parameter list and
     * return type ({@code Domain::CalcForce()}; the full signature is in the path), a plain
     * function with {@code ()}, {@code <placeholders>} and constructs such as {@code parallel at
     * heat.c:27} as they are. A context that ends in the system's libraries or the OpenMP runtime
     * ({@code __vdso_clock_gettime} under {@code clock_gettime} under {@code now}) is named by the
     * program's code that called into them ({@code now() called from spin_for() at util.c:12}: the
     * caller's line most of its time was called from).
     */
    static String call(CallingContextTree tree, LineTable lines, int node) {
        int own = ownCode(tree, node);
        String fn = function(tree.frameOf(own).name());
        int parent = tree.parent(own);
        if (parent == CallingContextTree.ROOT) return fn;
        Frame caller = tree.frameOf(parent);
        boolean construct = caller.name().contains(" at "); // parallel at f.c:12 says where already
        String at = caller.kind() == FrameKind.PLACEHOLDER || construct
                ? null
                : site(caller.file(), callLine(lines, own, parent));
        return fn + " called from " + function(caller.name()) + (at == null ? "" : " at " + at);
    }

    /** Whether the frame is a compiler-outlined construct's (a region's body, a task's entry). */
    static boolean isConstruct(Frame f) {
        String symbol = f.symbolName();
        return symbol != null && DisplayNames.isOutlined(symbol);
    }

    /** The line {@code node} was called from in its caller {@code parent}; the caller's hottest if not kept. */
    private static int callLine(LineTable lines, int node, int parent) {
        int line = lines.callLine(node);
        return line > 0 ? line : hottestLine(lines, parent);
    }

    /**
     * The line of the context's function with the most inclusive time (the call most of its callees' time is under), 0
     * if none.
     */
    static int hottestLine(LineTable lines, int node) {
        int best = 0;
        long most = -1;
        for (LineTable.Row r : lines.of(node)) {
            if (r.line() > 0 && r.inclusiveNs() > most) {
                best = r.line();
                most = r.inclusiveNs();
            }
        }
        return best;
    }

    /** The nearest context at or above node whose frame is not in a system library or the runtime; node if none. */
    static int ownCode(CallingContextTree tree, int node) {
        for (int n = node; n != CallingContextTree.ROOT; n = tree.parent(n)) {
            if (!isSystem(tree.frameOf(n))) return n;
        }
        return node;
    }

    /** Whether the frame is the OpenMP runtime's or a system library's (the vDSO included), not the program's. */
    static boolean isSystem(Frame f) {
        if (f.kind() == FrameKind.RUNTIME) return true;
        String m = f.module();
        if (m == null) return false;
        String base = m.substring(m.lastIndexOf('/') + 1);
        return m.startsWith("/lib/")
                || m.startsWith("/lib64/")
                || base.startsWith("libomp") // the runtime (and the agent) wherever installed
                || base.startsWith("libgomp")
                || base.startsWith("libiomp")
                || m.startsWith("/usr/lib/")
                || m.startsWith("/usr/lib64/")
                || m.contains("vdso")
                || m.startsWith("[");
    }

    static String function(String name) {
        if (name.startsWith("<") || name.contains(" at ")) return name;
        int open = topLevel(name, '(');
        if (open < 0) return name.indexOf(' ') >= 0 ? name : name + "()";
        if (open == 0) return name; // not a function name
        String head = name.substring(0, open);
        int space = lastTopLevelSpace(head); // a return type before the name (templates' instances)
        String qualified = space >= 0 ? head.substring(space + 1) : head;
        return qualified.isEmpty() ? name : qualified + "()";
    }

    /** The first {@code c} outside angle brackets, -1 if none. */
    private static int topLevel(String s, char c) {
        int depth = 0;
        for (int i = 0; i < s.length(); i++) {
            char x = s.charAt(i);
            if (x == '<') depth++;
            else if (x == '>' && depth > 0) depth--;
            else if (x == c && depth == 0) {
                // "operator()" and "operator<" are names, not the parameter list
                if (c == '('
                        && s.startsWith("operator", Math.max(0, i - 8))
                        && i + 1 < s.length()
                        && s.charAt(i + 1) == ')') {
                    i++;
                    continue;
                }
                return i;
            }
        }
        return -1;
    }

    private static int lastTopLevelSpace(String s) {
        int depth = 0;
        for (int i = s.length() - 1; i >= 0; i--) {
            char x = s.charAt(i);
            if (x == '>') depth++;
            else if (x == '<' && depth > 0) depth--;
            else if (x == ' ' && depth == 0) return i;
        }
        return -1;
    }
}
