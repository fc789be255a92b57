package org.ompprof.calltree;

/** The exclusive values of one metric, indexed by value slot (a (node, thread) pair). */
sealed interface MetricColumn permits DenseColumn, SparseColumn {
    static MetricColumn of(MetricStorage storage) {
        return of(storage, 1024, 16);
    }

    /** A column with room for slots {@code 0..slots-1} (dense) or {@code values} values (sparse). */
    static MetricColumn of(MetricStorage storage, int slots, int values) {
        return storage == MetricStorage.DENSE ? new DenseColumn(slots) : new SparseColumn(values);
    }

    void add(int slot, long value);

    long get(int slot);

    /** Calls {@code consumer} for each slot whose value is not zero. */
    void forEachNonZero(SlotValueConsumer consumer);

    @FunctionalInterface
    interface SlotValueConsumer {
        void accept(int slot, long value);
    }
}
