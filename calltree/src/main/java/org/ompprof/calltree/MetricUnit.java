package org.ompprof.calltree;

/** What a metric's values count. */
public enum MetricUnit {
    COUNT("samples"),
    NANOSECONDS("ns");

    private final String symbol;

    MetricUnit(String symbol) {
        this.symbol = symbol;
    }

    /** How values are labelled for people: {@code 12 samples}, {@code 12 ns}. */
    public String symbol() {
        return symbol;
    }
}
