package org.ompprof.ui.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.ompprof.blame.BlameKind;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Metric;
import org.ompprof.calltree.profile.MutexTable;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.RegionTable;

/** Plain-sentence findings: imbalance at barriers, mutex bottlenecks, idleness; each with its cost. */
final class Findings {
    /** Findings below this share of all thread time are not worth a sentence. */
    private static final double WORTH = 0.02;

    private final Profile p;
    private final CallingContextTree tree;
    private final long total;
    private final Map<Integer, List<RegionTable.Row>> regions;

    Findings(Profile p, CallingContextTree tree, long total, Map<Integer, List<RegionTable.Row>> regions) {
        this.p = p;
        this.tree = tree;
        this.total = total;
        this.regions = regions;
    }

    List<Finding> all() {
        List<Finding> out = new ArrayList<>();
        regions.forEach((node, rows) -> barrier(node, rows, out));
        for (MutexTable.Row m : p.mutexes().rows()) mutex(m, out);
        idle(out);
        unattributed(out);
        out.sort(Comparator.comparingLong(f -> -f.costNs()));
        return out;
    }

    private boolean worth(long ns) {
        return total > 0 && ns >= WORTH * total;
    }

    private void barrier(int region, List<RegionTable.Row> rows, List<Finding> out) {
        long barrier = rows.stream().mapToLong(r -> r.ns(RegionTable.Column.BARRIER)).sum();
        if (!worth(barrier)) return;
        RegionTable.Row heaviest = rows.stream().max(Comparator.comparingLong(r -> r.ns(RegionTable.Column.WORK))).orElseThrow();
        double ratio = Report.imbalance(rows);
        int blamed = topIn(BlameKind.BARRIER.metric(), region);
        String site = Names.site(rows.getFirst().callSiteFile(), rows.getFirst().callSiteLine());
        String who = ratio >= 1.1 ? String.format(Locale.ROOT, "; thread %d works %.1fx the mean", heaviest.thread(), ratio) : "";
        String text = null;
        for (boolean callers : new boolean[] {true, false}) { // without the callers when the sentence would run too long
            String opener = callers ? Names.call(tree, region) : Names.function(tree.frameOf(region).name());
            String where = "the parallel region " + (site == null ? "" : "at " + site + " ") + "opened in " + opener.replace("()", "");
            String blamee = blamed < 0 ? "" : callers ? Names.call(tree, blamed) : Names.function(tree.frameOf(blamed).name());
            String cause = blamed < 0 ? "" : (ratio >= 1.1 ? ": imbalance, caused by " : ": blamed on ") + blamee;
            text = String.format(Locale.ROOT, "%s of thread time is barrier waiting in %s%s%s", Report.pct(barrier, total), where, who, cause);
            if (text.length() <= Finding.MAX_LENGTH) break;
        }
        out.add(new Finding(barrier, text, blamed >= 0 ? blamed : region));
    }

    /** {@code critical `shared_table` at q.c:156: waiters lose 5.2 s (12% of thread time), blamed on crit_body() (holder)}. */
    private void mutex(MutexTable.Row m, List<Finding> out) {
        if (!worth(m.waitedNs())) return;
        boolean known = m.topNode() >= 0 && !tree.frameOf(m.topNode()).name().startsWith("<");
        out.add(new Finding(m.waitedNs(), String.format(Locale.ROOT, "%s: waiters lose %s (%s of thread time), blamed on %s",
                Names.mutex(m), Report.time(m.waitedNs()), Report.pct(m.waitedNs(), total),
                known ? Names.call(tree, m.topNode()) + " (holder)" : "no known holder (<unattributed>)"), m.topNode()));
    }

    private void idle(List<Finding> out) {
        long waited = p.blame("waited_ns.idle");
        if (!worth(waited)) return;
        int blamed = topIn(BlameKind.IDLE.metric(), -1);
        out.add(new Finding(waited, String.format(Locale.ROOT, "%s of thread time is idle (threads with no work: serial code or "
                + "too few tasks), blamed on %s", Report.pct(waited, total), blamed < 0 ? "nothing running" : Names.call(tree, blamed)), blamed));
    }

    private void unattributed(List<Finding> out) {
        long un = 0, waited = 0;
        for (BlameKind k : BlameKind.values()) {
            un += p.blame("unattributed_ns." + k.name().toLowerCase(Locale.ROOT));
            waited += p.blame("waited_ns." + k.name().toLowerCase(Locale.ROOT));
        }
        if (!worth(un)) return;
        out.add(new Finding(un, String.format(Locale.ROOT, "%s of the waiting (%s) found nobody to blame: no thread worked at the time, "
                + "or a mutex's holder was not recorded; it is under <unattributed>", Report.pct(un, waited), Report.time(un)),
                tree.findChild(CallingContextTree.ROOT, tree.frames().find(org.ompprof.calltree.Frame.UNATTRIBUTED))));
    }

    /** The node with the most of {@code metric}, within {@code region}'s subtree (anywhere for -1); -1 if none. */
    private int topIn(String metric, int region) {
        Metric m = tree.metrics().find(metric);
        if (m == null) return -1;
        long[] byNode = new long[tree.size()];
        tree.forEachExclusive(m.index(), (node, thread, value) -> byNode[node] += value);
        int best = -1;
        for (int n = 1; n < byNode.length; n++) {
            if (byNode[n] > 0 && (best < 0 || byNode[n] > byNode[best]) && (region < 0 || under(n, region))) best = n;
        }
        return best;
    }

    private boolean under(int node, int ancestor) {
        for (int n = node; n != CallingContextTree.ROOT; n = tree.parent(n)) if (n == ancestor) return true;
        return false;
    }

}
