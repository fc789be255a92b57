package org.ompprof.calltree.profile;

import java.util.Arrays;

/**
 * One thread's samples in time order, for trace views: when each was taken, the tree node of
 * its calling context, its OMPT state and the time it stands for. Columns of primitives, about
 * 24 bytes per sample in memory.
 */
public final class Timeline {
    private final int thread;
    private final long[] timeNs;
    private final int[] node;
    private final int[] state;
    private final long[] weightNs;

    private Timeline(int thread, long[] timeNs, int[] node, int[] state, long[] weightNs) {
        this.thread = thread;
        this.timeNs = timeNs;
        this.node = node;
        this.state = state;
        this.weightNs = weightNs;
    }

    public int thread() {
        return thread;
    }

    public int size() {
        return timeNs.length;
    }

    public long timeNs(int i) {
        return timeNs[i];
    }

    public int node(int i) {
        return node[i];
    }

    /** The sample's {@code ompt_state_t} value. */
    public int state(int i) {
        return state[i];
    }

    public long weightNs(int i) {
        return weightNs[i];
    }

    /**
     * The same samples as another thread's, in another tree: node n becomes {@code nodeMap[n]}
     * (when timelines of several profiles are merged into one).
     */
    public Timeline remapped(int newThread, int[] nodeMap) {
        int[] nodes = new int[node.length];
        for (int i = 0; i < nodes.length; i++) nodes[i] = nodeMap[node[i]];
        return new Timeline(newThread, timeNs, nodes, state, weightNs);
    }

    /** The time column itself, for searches by time (not a copy: never write to it). */
    long[] times() {
        return timeNs;
    }

    /** Appends samples; {@link #build()} gives the timeline. Not thread-safe. */
    public static final class Builder {
        private final int thread;
        private long[] timeNs = new long[256];
        private int[] node = new int[256];
        private int[] state = new int[256];
        private long[] weightNs = new long[256];
        private int n;

        public Builder(int thread) {
            this.thread = thread;
        }

        public Builder add(long time, int contextNode, int ompState, long weight) {
            if (n == timeNs.length) grow();
            timeNs[n] = time;
            node[n] = contextNode;
            state[n] = ompState;
            weightNs[n] = weight;
            n++;
            return this;
        }

        public int size() {
            return n;
        }

        private void grow() {
            int capacity = n * 2;
            timeNs = Arrays.copyOf(timeNs, capacity);
            node = Arrays.copyOf(node, capacity);
            state = Arrays.copyOf(state, capacity);
            weightNs = Arrays.copyOf(weightNs, capacity);
        }

        public Timeline build() {
            return new Timeline(
                    thread,
                    Arrays.copyOf(timeNs, n),
                    Arrays.copyOf(node, n),
                    Arrays.copyOf(state, n),
                    Arrays.copyOf(weightNs, n));
        }
    }
}
