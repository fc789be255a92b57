package org.ompprof.calltree;

import org.eclipse.collections.impl.map.mutable.primitive.IntLongHashMap;

/** A primitive hash map from slot to value; see {@link MetricStorage#SPARSE}. */
final class SparseColumn implements MetricColumn {
    private final IntLongHashMap values;

    SparseColumn(int capacity) {
        values = new IntLongHashMap(Math.max(16, capacity));
    }

    @Override
    public void add(int slot, long value) {
        values.addToValue(slot, value);
    }

    @Override
    public long get(int slot) {
        return values.get(slot);
    }

    @Override
    public void forEachNonZero(SlotValueConsumer consumer) {
        values.forEachKeyValue((slot, value) -> {
            if (value != 0) consumer.accept(slot, value);
        });
    }
}
