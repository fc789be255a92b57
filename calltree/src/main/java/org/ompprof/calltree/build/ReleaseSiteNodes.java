package org.ompprof.calltree.build;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.collections.impl.list.mutable.primitive.IntArrayList;
import org.ompprof.blame.Charges;
import org.ompprof.blame.ReleaseSites;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.unwinder.stitch.PathFrame;
import org.ompprof.unwinder.stitch.Stitcher;

/**
 * The tree nodes of the contexts in which mutex holds were released, made once blame has seen every sample: a release
 * site nobody's waiting went to adds nothing to the tree. The node is the releasing function's context with a {@code
 * <hold released at f.c:LINE>} frame under it: the tree keeps one node per function, and the line is what tells a
 * critical section's end from the rest of that function. Holds released at one line in one context share a node.
 *
 * <p>Blame may run on another thread than the one growing the tree, so while it runs a site is a stand-in ({@link
 * #FIRST_STAND_IN} on), one per context in the order blame first asks; the stand-ins become nodes in that order when
 * blame resolves them, and the tree is the same on any number of threads.
 */
final class ReleaseSiteNodes implements ReleaseSites {
    /** Stand-ins count from here: above any tree node. */
    static final int FIRST_STAND_IN = 1 << 30;

    private final Stitcher stitcher;
    private final FrameNames names;
    private final CallingContextTree tree;
    private final Map<List<PathFrame>, Integer> standIns = new LinkedHashMap<>();
    private int[] nodes;

    ReleaseSiteNodes(Stitcher stitcher, FrameNames names, CallingContextTree tree) {
        this.stitcher = stitcher;
        this.names = names;
        this.tree = tree;
    }

    @Override
    public int node(int thread, long releaseNs) {
        if (nodes != null) throw new IllegalStateException("release sites asked for after they were resolved");
        return stitcher.releaseSite(thread, releaseNs)
                .filter(path -> !path.isEmpty())
                .map(path -> standIns.computeIfAbsent(path, p -> FIRST_STAND_IN + standIns.size()))
                .orElse(-1);
    }

    @Override
    public int resolve(int node) {
        if (node < FIRST_STAND_IN) return node;
        if (nodes == null)
            nodes = standIns.keySet().stream().mapToInt(this::place).toArray();
        return nodes[node - FIRST_STAND_IN];
    }

    /**
     * A context's node; {@code <unattributed>}'s if none of its frames has a name (the symbolizer knew none of its
     * pcs), as blame already charged the site by then.
     */
    private int place(List<PathFrame> context) {
        IntArrayList path = new IntArrayList(), lines = new IntArrayList();
        names.append(context, path, lines);
        if (path.isEmpty()) return Charges.UNATTRIBUTED;
        Frame leaf = tree.frames().frame(path.getLast());
        int line = lines.getLast();
        if (leaf.file() != null && line > 0) {
            path.add(tree.frames()
                    .intern(Frame.holdReleasedAt(Path.of(leaf.file()).getFileName() + ":" + line)));
        }
        return tree.path(path.toArray());
    }
}
