package org.ompprof.calltree;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The metrics of a profile, in registration order. Later stages (blame) register theirs here;
 * trees grow a column for each index on first use, so registering is possible at any time.
 * Not thread-safe.
 */
public final class MetricRegistry {
    private final List<Metric> metrics = new ArrayList<>();
    private final Map<String, Metric> byName = new HashMap<>();

    /** An empty registry; see {@link #standard()} for one that has samples, time and the state times. */
    public MetricRegistry() {}

    /** A registry holding {@link StandardMetrics} at their fixed indices. */
    public static MetricRegistry standard() {
        MetricRegistry registry = new MetricRegistry();
        StandardMetrics.registerInto(registry);
        return registry;
    }

    /**
     * Registers a metric, or returns the one already registered under the same name if it is
     * defined the same way.
     *
     * @param parentName name of the metric this one refines, null if none; must be registered
     * @throws IllegalArgumentException if the name is taken by a differently defined metric
     */
    public Metric register(String name, MetricUnit unit, String description, MetricStorage storage, String parentName) {
        int parent = parentName == null ? -1 : require(parentName).index();
        Metric existing = byName.get(name);
        if (existing != null) return sameOrFail(existing, unit, storage, parent);
        Metric metric = new Metric(metrics.size(), name, unit, description, storage, parent);
        metrics.add(metric);
        byName.put(name, metric);
        return metric;
    }

    private static Metric sameOrFail(Metric existing, MetricUnit unit, MetricStorage storage, int parent) {
        if (existing.unit() == unit && existing.storage() == storage && existing.parent() == parent) return existing;
        throw new IllegalArgumentException("metric " + existing.name() + " is already registered as " + existing);
    }

    public Metric metric(int index) {
        return metrics.get(index);
    }

    /** The metric of that name, or null. */
    public Metric find(String name) {
        return byName.get(name);
    }

    /** The metric of that name; the exception lists the known names, for command-line errors. */
    public Metric require(String name) {
        Metric metric = byName.get(Objects.requireNonNull(name, "name"));
        if (metric == null) throw new IllegalArgumentException("unknown metric '" + name + "'; known: " + names());
        return metric;
    }

    public int size() {
        return metrics.size();
    }

    public List<Metric> all() {
        return List.copyOf(metrics);
    }

    public List<String> names() {
        return metrics.stream().map(Metric::name).toList();
    }

    /**
     * Registers every metric of {@code other} here (by name); element i of the result is this
     * registry's index for other's metric i.
     */
    public int[] importAll(MetricRegistry other) {
        int[] map = new int[other.size()];
        for (Metric m : other.metrics) {
            String parent = m.hasParent() ? other.metric(m.parent()).name() : null;
            map[m.index()] = register(m.name(), m.unit(), m.description(), m.storage(), parent)
                    .index();
        }
        return map;
    }
}
