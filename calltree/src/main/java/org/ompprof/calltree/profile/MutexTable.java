package org.ompprof.calltree.profile;

import java.util.List;

/**
 * The mutexes (locks, criticals, atomics, ordered) threads waited for, each with how long they
 * waited and the context most of it is blamed on.
 *
 * @param rows by waiting, most first
 */
public record MutexTable(List<Row> rows) {
    /**
     * @param name the lock's variable or the critical's name when the symbol table knows it, else empty
     * @param metric the blame metric of its kind ({@code mutex_blame.critical}, ...)
     * @param siteFile source file of the first place it was acquired, null if unknown
     * @param topNode the tree node most of its waiting is blamed on; -1: unattributed
     */
    public record Row(
            String name, String metric, String siteFile, int siteLine, long waitedNs, int topNode, long topNodeNs) {}

    public MutexTable {
        rows = List.copyOf(rows);
    }

    /** The rows in another tree: node n becomes {@code nodeMap[n]} (unattributed stays -1). */
    public MutexTable remapped(int[] nodeMap) {
        return new MutexTable(rows.stream()
                .map(m -> new Row(
                        m.name(),
                        m.metric(),
                        m.siteFile(),
                        m.siteLine(),
                        m.waitedNs(),
                        m.topNode() < 0 ? m.topNode() : nodeMap[m.topNode()],
                        m.topNodeNs()))
                .toList());
    }
}
