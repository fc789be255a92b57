package org.ompprof.calltree;

import java.util.Arrays;

/** A flat long array indexed by slot; see {@link MetricStorage#DENSE}. */
final class DenseColumn implements MetricColumn {
    private long[] values;
    /** One past the highest slot ever written, so iteration stops early for young columns. */
    private int limit;

    DenseColumn(int capacity) {
        values = new long[Math.max(16, capacity)];
    }

    @Override
    public void add(int slot, long value) {
        if (slot >= values.length) values = Arrays.copyOf(values, Math.max(slot + 1, values.length * 2));
        values[slot] += value;
        if (slot >= limit) limit = slot + 1;
    }

    @Override
    public long get(int slot) {
        return slot < limit ? values[slot] : 0;
    }

    @Override
    public void forEachNonZero(SlotValueConsumer consumer) {
        for (int slot = 0; slot < limit; slot++) {
            if (values[slot] != 0) consumer.accept(slot, values[slot]);
        }
    }
}
