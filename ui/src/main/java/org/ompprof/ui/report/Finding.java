package org.ompprof.ui.report;

/**
 * One plain-sentence finding and what it costs (thread time), for ranking.
 *
 * @param node the context it is about (the blamed one, else the one that waits), -1 for none
 */
public record Finding(long costNs, String text, int node) {
    /**
     * A finding is a sentence to read at a glance; the full paths are in the report and one click away in the viewer.
     */
    public static final int MAX_LENGTH = 240;
}
