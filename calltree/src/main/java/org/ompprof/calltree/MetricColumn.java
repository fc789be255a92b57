package org.ompprof.calltree;

/** The exclusive values of one metric, indexed by value slot (a (node, thread) pair). */
sealed interface MetricColumn permits DenseColumn, SparseColumn {
    static MetricColumn of(MetricStorage storage) {
        return storage == MetricStorage.DENSE ? new DenseColumn() : new SparseColumn();
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
