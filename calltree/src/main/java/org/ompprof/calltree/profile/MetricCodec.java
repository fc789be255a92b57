package org.ompprof.calltree.profile;

import org.ompprof.calltree.Metric;
import org.ompprof.calltree.MetricRegistry;
import org.ompprof.calltree.MetricStorage;
import org.ompprof.calltree.MetricUnit;
import org.ompprof.sampler.recording.BadSectionException;

/** The METRICS section: each metric in registry order as name, unit, storage, parent index + 1 and description. */
public final class MetricCodec {
    private static final MetricUnit[] UNITS = MetricUnit.values();
    private static final MetricStorage[] STORAGES = MetricStorage.values();

    private MetricCodec() {}

    public static byte[] encode(MetricRegistry metrics) {
        ByteSink out = new ByteSink();
        out.varint(metrics.size());
        for (Metric m : metrics.all()) {
            out.string(m.name());
            out.u8(m.unit().ordinal());
            out.u8(m.storage().ordinal());
            out.varint(m.parent() + 1L);
            out.string(m.description());
        }
        return out.toByteArray();
    }

    public static MetricRegistry decode(byte[] payload) {
        ByteSource in = new ByteSource(payload);
        int count = in.count(5, "metrics");
        MetricRegistry registry = new MetricRegistry();
        for (int i = 0; i < count; i++) {
            int at = in.position();
            String name = in.string();
            int unit = in.u8(), storage = in.u8();
            int parent = in.bounded(i, "parent metric") - 1;
            String description = in.string();
            if (unit >= UNITS.length || storage >= STORAGES.length)
                throw new BadSectionException(at, "metric " + name + " has an unknown unit or storage");
            try {
                Metric m = registry.register(
                        name,
                        UNITS[unit],
                        description,
                        STORAGES[storage],
                        parent < 0 ? null : registry.metric(parent).name());
                if (m.index() != i) throw new BadSectionException(at, "metric " + name + " appears twice");
            } catch (BadSectionException e) {
                throw e;
            } catch (IllegalArgumentException e) {
                throw new BadSectionException(at, "bad metric: " + e.getMessage());
            }
        }
        in.end("metric table");
        return registry;
    }
}
