package org.ompprof.calltree;

/** Receives the non-zero exclusive values of one metric, one (node, thread) pair at a time. */
@FunctionalInterface
public interface ExclusiveValueConsumer {
    void accept(int node, int thread, long value);
}
