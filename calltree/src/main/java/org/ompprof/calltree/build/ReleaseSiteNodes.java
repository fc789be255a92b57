package org.ompprof.calltree.build;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.collections.impl.list.mutable.primitive.IntArrayList;
import org.ompprof.blame.ReleaseSites;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.unwinder.stitch.PathFrame;
import org.ompprof.unwinder.stitch.Stitcher;

/**
 * The tree nodes of the contexts in which mutex holds were released, made the first time blame charges one: a
 * release site nobody's waiting went to adds nothing to the tree. The node is the releasing function's context with
 * a {@code <hold released at f.c:LINE>} frame under it: the tree keeps one node per function, and the line is what
 * tells a critical section's end from the rest of that function. Holds released at one line in one context share a
 * node.
 */
final class ReleaseSiteNodes implements ReleaseSites {
    private final Stitcher stitcher;
    private final FrameNames names;
    private final CallingContextTree tree;
    private final Map<List<PathFrame>, Integer> nodes = new HashMap<>();

    ReleaseSiteNodes(Stitcher stitcher, FrameNames names, CallingContextTree tree) {
        this.stitcher = stitcher;
        this.names = names;
        this.tree = tree;
    }

    @Override
    public int node(int thread, long releaseNs) {
        return stitcher.releaseSite(thread, releaseNs)
                .map(path -> nodes.computeIfAbsent(path, this::place))
                .orElse(-1);
    }

    private int place(List<PathFrame> context) {
        IntArrayList path = new IntArrayList(), lines = new IntArrayList();
        names.append(context, path, lines);
        if (path.isEmpty()) return -1;
        Frame leaf = tree.frames().frame(path.getLast());
        int line = lines.getLast();
        if (leaf.file() != null && line > 0) {
            path.add(tree.frames()
                    .intern(Frame.holdReleasedAt(Path.of(leaf.file()).getFileName() + ":" + line)));
        }
        return tree.path(path.toArray());
    }
}
