package org.ompprof.calltree;

/**
 * A metric: a column of values attached to the nodes of a tree, identified by its index in a
 * {@link MetricRegistry}.
 *
 * @param index position in its registry, the id trees and exports use
 * @param name dotted name, e.g. {@code time.barrier.explicit}
 * @param unit what the values count
 * @param description one line for people
 * @param storage how trees store it
 * @param parent index of the metric this one refines (whose values include this one's), -1 if none
 */
public record Metric(int index, String name, MetricUnit unit, String description, MetricStorage storage, int parent) {
    public boolean hasParent() {
        return parent >= 0;
    }
}
