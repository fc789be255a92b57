package org.ompprof.blame;

/**
 * Where mutex holds ended: the tree node of the holder's calling context at its release, looked up the first time
 * blame needs it (a hold of microseconds is seldom sampled; its release site is where its waiting belongs then, as
 * HPCToolkit charges a lock's waiting to the context that released it).
 */
@FunctionalInterface
public interface ReleaseSites {
    /** Nothing recorded: blame falls back to the holder's samples around the release. */
    ReleaseSites NONE = (thread, releaseNs) -> -1;

    /** The node of the context in which {@code thread} released the hold ending at {@code releaseNs}; -1 if none. */
    int node(int thread, long releaseNs);

    /**
     * The tree node a node {@link #node} returned stands for, asked once blame has seen every sample: a site may be
     * handed out as a stand-in while another thread still grows the tree (blame then runs apart from it), and made
     * a node only now, in the order blame first asked for the sites, so that the tree is the same however the work
     * was spread. Nodes blame had from samples come back as they are.
     */
    default int resolve(int node) {
        return node;
    }
}
