package org.ompprof.ui.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.ompprof.blame.BlameKind;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Metric;
import org.ompprof.calltree.StandardMetrics;
import org.ompprof.calltree.merge.JobRanks;
import org.ompprof.calltree.merge.RunMetadata;
import org.ompprof.calltree.profile.MutexTable;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.RegionTable;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.ThreadInfo;

/**
 * The text of {@code ompprof report}: summary, state breakdown, top contexts by inclusive time
 * and by blame, an ompP-style table per parallel region, and findings ranked by cost.
 */
public final class Report {
    private static final String[] BLAME_METRICS = {
        BlameKind.IDLE.metric(), BlameKind.BARRIER.metric(), BlameKind.MUTEX_METRIC, BlameKind.MPI.metric()
    };

    private final Profile p;
    private final CallingContextTree tree;
    private final Metadata meta;
    private final List<ThreadInfo> threads;
    private final String file;
    private final int top;
    private final boolean threadTable;
    private final StringBuilder s = new StringBuilder();
    private final long total;
    private final RankTable ranks;
    /** Rows by region, the heaviest region first, each region's work with its nested regions' ({@link NestedWork}). */
    private final Map<RegionTable.Region, List<RegionTable.Row>> regionRows;
    /** Whether any region's work took in a nested region's. */
    private final boolean nestedWork;

    public Report(Profile p, Metadata meta, List<ThreadInfo> threads, String file, int top, boolean threadTable) {
        this.p = p;
        this.tree = p.tree();
        this.meta = meta;
        this.threads = threads;
        this.file = file;
        this.top = top;
        this.threadTable = threadTable;
        this.total = tree.total(StandardMetrics.TIME);
        this.ranks = RankTable.of(tree, meta);
        Map<RegionTable.Region, List<RegionTable.Row>> sorted = sortedRegionRows();
        this.regionRows = NestedWork.folded(tree, sorted);
        this.nestedWork = !regionRows.equals(sorted); // a region with nothing nested keeps its rows as they were
    }

    public String text() {
        summary();
        states();
        ranks();
        if (threadTable) threadTable();
        topByInclusive();
        topByBlame();
        regions();
        devices();
        findings();
        return s.toString();
    }

    private void summary() {
        line("ompprof report: %s", file);
        line("program   %s (exit status %s)", meta.get(Metadata.COMMAND, "?"), meta.get(Metadata.EXIT_STATUS, "?"));
        long runs = meta.getLong(RunMetadata.INPUTS, 0);
        int cpus = cpus(meta);
        line(
                "run       %s, %d threads%s, %s sampling at %s Hz; %,d samples, %s of thread time",
                runs > 1 ? runs + " runs merged" : time(meta.getLong(Metadata.WALL_NS, 0)) + " wall",
                threads.size(),
                cpus > 0 ? " on " + cpus + " CPUs" : "",
                meta.get(Metadata.MODE, "?"),
                meta.get(Metadata.RATE_HZ, "?"),
                p.samples(),
                time(total));
        int crowd = regionThreads();
        if (cpus > 0 && crowd > cpus) {
            line(
                    "note      %d threads on %d CPUs: threads also wait for a CPU, which reads as barrier waiting and "
                            + "imbalance that are not the code's; run at most %d threads to see the code's own",
                    crowd, cpus, cpus);
        }
        if ("cpu".equals(meta.get(Metadata.MODE, ""))) {
            line("note      CPU-time sampling sees barrier and lock waiting only while threads spin; record "
                    + "with --mode wall for all of it");
        }
        s.append('\n');
    }

    private void states() {
        line("where the time goes (all threads)");
        for (Metric m : tree.metrics().all()) {
            if (!m.name().startsWith("time.") || !m.hasParent()) continue;
            boolean topLevel = tree.metrics().metric(m.parent()).name().equals(StandardMetrics.TIME_NAME);
            long v = tree.total(m.index());
            if (v == 0) continue;
            line("  %-30s %10s %6s", (topLevel ? "" : "  ") + m.name().substring(5), time(v), pct(v, total));
        }
        s.append('\n');
    }

    /** A job merged from its MPI ranks' profiles: the ranks side by side. */
    private void ranks() {
        if (ranks.isEmpty()) return;
        line(
                "ranks (%d MPI ranks; threads below are rank.thread)",
                ranks.ranks().size());
        for (String l : ranks.lines()) line("  %s", l);
        s.append('\n');
    }

    private void threadTable() {
        line("time per OpenMP state, per thread");
        List<Metric> states = stateMetrics(tree);
        StringBuilder h = new StringBuilder(String.format(Locale.ROOT, "  %6s", "thread"));
        for (Metric m : states)
            h.append(String.format(Locale.ROOT, " %14s", m.name().substring(5)));
        line("%s", h);
        for (int t : tree.threads()) {
            StringBuilder r = new StringBuilder(String.format(Locale.ROOT, "  %6s", ranks.label(t)));
            for (Metric m : states) r.append(String.format(Locale.ROOT, " %14s", time(tree.total(m.index(), t))));
            line("%s", r);
        }
        s.append('\n');
    }

    /** The deepest node of each chain of equal inclusive time, so main;f;g with all time in g shows once. */
    private void topByInclusive() {
        long[] inclusive = tree.inclusiveByNode(StandardMetrics.TIME);
        List<Integer> nodes = new ArrayList<>();
        for (int n = 1; n < tree.size(); n++) {
            if (inclusive[n] == 0) continue;
            boolean chain = false;
            for (int c : tree.children(n)) chain |= inclusive[c] == inclusive[n];
            if (!chain) nodes.add(n);
        }
        nodes.sort(Comparator.comparingLong((Integer n) -> -inclusive[n]));
        line("top contexts by inclusive time");
        for (int n : nodes.subList(0, Math.min(top, nodes.size())))
            line("  %10s %6s  %s", time(inclusive[n]), pct(inclusive[n], total), Names.path(tree, n));
        s.append('\n');
    }

    private void topByBlame() {
        long[] blame = blameByNode();
        long sum = 0;
        for (long b : blame) sum += b;
        line("who makes the threads wait (blame: waiting charged to the code that caused it)");
        for (BlameKind k : BlameKind.values()) {
            String key = k.name().toLowerCase(Locale.ROOT);
            long waited = p.blame("waited_ns." + key);
            if (waited == 0) continue;
            long un = p.blame("unattributed_ns." + key), latency = p.blame("region_latency_ns." + key);
            long handedOver = p.blame("handed_over_ns." + key);
            line(
                    "  %-22s %10s waited, %s unattributed%s%s",
                    k.metric(),
                    time(waited),
                    pct(un, waited),
                    latency == 0 ? "" : latencyMeaning(k, latency, waited),
                    handedOver == 0 ? "" : ", " + pct(handedOver, waited) + " while nobody held it (between holders)");
        }
        for (MutexTable.Row m :
                p.mutexes().rows().subList(0, Math.min(top, p.mutexes().rows().size()))) {
            line(
                    "    %s: %s waited, %s of it on %s",
                    Names.mutex(m),
                    Report.time(m.waitedNs()),
                    pct(m.topNodeNs(), m.waitedNs()),
                    m.topNode() < 0 ? "<unattributed>" : Names.path(tree, m.topNode()));
        }
        if (sum == 0) {
            line("  nobody waited");
            s.append('\n');
            return;
        }
        List<Integer> nodes = new ArrayList<>();
        for (int n = 1; n < tree.size(); n++) if (blame[n] > 0) nodes.add(n);
        nodes.sort(Comparator.comparingLong((Integer n) -> -blame[n]));
        line("  top contexts by blame");
        for (int n : nodes.subList(0, Math.min(top, nodes.size()))) {
            line("  %10s %6s  %s%s", time(blame[n]), pct(blame[n], sum), Names.path(tree, n), blameKinds(n));
        }
        s.append('\n');
    }

    /** Barrier latency is part of the waiting; an MPI call's own time (after the last rank came) is not. */
    private static String latencyMeaning(BlameKind k, long latency, long waited) {
        return k == BlameKind.MPI
                ? "; besides, " + time(latency) + " in MPI calls was their own time (nobody came late)"
                : ", " + pct(latency, waited) + " the barrier's own latency (nobody worked)";
    }

    private String blameKinds(int node) {
        List<String> parts = new ArrayList<>();
        for (BlameKind k : BlameKind.values()) {
            Metric m = tree.metrics().find(k.metric());
            if (m != null && tree.exclusive(node, m.index()) > 0) parts.add(k.metric());
        }
        return parts.isEmpty() ? "" : "  [" + String.join(", ", parts) + "]";
    }

    private long[] blameByNode() {
        long[] out = new long[tree.size()];
        for (String name : BLAME_METRICS) {
            Metric m = tree.metrics().find(name);
            if (m == null) continue;
            tree.forEachExclusive(m.index(), (node, thread, value) -> out[node] += value);
        }
        return out;
    }

    private void regions() {
        Map<RegionTable.Region, List<RegionTable.Row>> byRegion = regionRows;
        if (byRegion.isEmpty()) return;
        line(
                "parallel regions (time per thread%s; imbalance = max/mean work)",
                nestedWork ? "; a region's work includes that of the regions nested in it" : "");
        for (Map.Entry<RegionTable.Region, List<RegionTable.Row>> e : byRegion.entrySet()) {
            RegionTable.Row first = e.getValue().getFirst();
            line(
                    "  region opened in %s%s, %d instance%s%s",
                    Names.path(tree, first.regionNode()),
                    site(first),
                    first.instances(),
                    first.instances() == 1 ? "" : "s",
                    body(e.getValue()));
            line("    %6s %10s %10s %10s %10s %10s", "thread", "work", "barrier", "lock/crit", "idle", "other");
            for (RegionTable.Row r : e.getValue()) {
                line(
                        "    %6s %10s %10s %10s %10s %10s",
                        ranks.label(r.thread()),
                        time(r.ns(RegionTable.Column.WORK)),
                        time(r.ns(RegionTable.Column.BARRIER)),
                        time(r.ns(RegionTable.Column.MUTEX)),
                        time(r.ns(RegionTable.Column.IDLE)),
                        time(r.ns(RegionTable.Column.OTHER)));
            }
            line("    imbalance %.2f", imbalance(e.getValue()));
        }
        s.append('\n');
    }

    /** Device totals, then the contexts that launched the most device time (kernels and transfers). */
    private void devices() {
        DeviceTotals totals = DeviceTotals.of(p.devices());
        if (totals.isEmpty()) return;
        line("devices (times on the host clock)");
        s.append(totals.table());
        Metric kernel = tree.metrics().find("device_kernel"),
                transfer = tree.metrics().find("device_transfer");
        if (kernel != null && transfer != null) {
            long[] k = tree.inclusiveByNode(kernel.index()), x = tree.inclusiveByNode(transfer.index());
            List<Integer> launches = new ArrayList<>();
            for (int n = 1; n < tree.size(); n++) {
                if (tree.exclusive(n, kernel.index()) + tree.exclusive(n, transfer.index()) > 0) launches.add(n);
            }
            launches.sort(Comparator.comparingLong((Integer n) -> -(k[n] + x[n])));
            line("  device time by launching context (kernels, transfers)");
            for (int n : launches.subList(0, Math.min(top, launches.size()))) {
                line("  %10s %10s  %s", time(k[n]), time(x[n]), Names.path(tree, n));
            }
        }
        s.append('\n');
    }

    private Map<RegionTable.Region, List<RegionTable.Row>> sortedRegionRows() {
        List<Map.Entry<RegionTable.Region, List<RegionTable.Row>>> sorted =
                new ArrayList<>(p.regions().byRegion().entrySet());
        sorted.sort(Comparator.comparingLong(
                e -> -e.getValue().stream().mapToLong(RegionTable.Row::totalNs).sum()));
        Map<RegionTable.Region, List<RegionTable.Row>> out = new LinkedHashMap<>();
        for (var e : sorted) out.put(e.getKey(), e.getValue());
        return out;
    }

    public static double imbalance(List<RegionTable.Row> rows) {
        long max = 0, sum = 0;
        for (RegionTable.Row r : rows) {
            max = Math.max(max, r.ns(RegionTable.Column.WORK));
            sum += r.ns(RegionTable.Column.WORK);
        }
        return sum == 0 ? 1 : (double) max * rows.size() / sum;
    }

    /**
     * The region's outlined bodies where its call site does not name them: a function that tail-called the runtime;
     * or one call site that runs either of two constructs (clang -O2 made HPCCG's ddot if/else pair of regions one fork
     * call choosing its body), whose instances the runtime counts as one region's.
     */
    private String body(List<RegionTable.Row> rows) {
        String site = Names.site(rows.getFirst().callSiteFile(), rows.getFirst().callSiteLine());
        List<String> names = new ArrayList<>();
        for (int body : RegionTable.bodyNodes(rows)) {
            String name = tree.frameOf(body).name();
            if (Names.isConstruct(tree.frameOf(body)) && !names.contains(name)) names.add(name);
        }
        if (names.isEmpty()
                || (names.size() == 1 && site != null && names.getFirst().endsWith(site))) return "";
        names.sort(null);
        return ": " + String.join(" or ", names) + (names.size() > 1 ? " (one call site)" : "");
    }

    private static String site(RegionTable.Row r) {
        String site = Names.site(r.callSiteFile(), r.callSiteLine());
        return site == null ? "" : " (" + site + ")";
    }

    /** The most threads any parallel region had. */
    private int regionThreads() {
        return p.regions().byRegion().values().stream()
                .mapToInt(List::size)
                .max()
                .orElse(0);
    }

    /** The CPUs the program could run on, 0 if unknown (a merged job's ranks may have had other machines). */
    private static int cpus(Metadata meta) {
        return meta == null ? 0 : (int) meta.getLong(Metadata.CPUS, 0);
    }

    /** The findings of a profile, costliest first, each with the context it points at. */
    public static List<Finding> findings(Profile p) {
        return findings(p, null);
    }

    /** The same, threads named as the report names them: rank.thread in a job profile ({@code meta} may be null). */
    public static List<Finding> findings(Profile p, Metadata meta) {
        Report r = new Report(p, null, List.of(), "", 0, false); // no per-rank table: only the names are wanted
        return new Findings(p, r.tree, r.total, r.regionRows, JobRanks.of(meta)::label).all();
    }

    private void findings() {
        List<Finding> found = new Findings(p, tree, total, regionRows, ranks::label).all();
        line("findings, by cost");
        if (found.isEmpty()) line("  nothing stands out: threads spend their time working");
        int i = 1;
        for (Finding f : found) line("  %d. %s", i++, f.text());
    }

    private void line(String format, Object... args) {
        s.append(String.format(Locale.ROOT, format, args)).append('\n');
    }

    /** The time metrics of the states (children of time) that hold any time: what a state breakdown lists. */
    public static List<Metric> stateMetrics(CallingContextTree tree) {
        return tree.metrics().all().stream()
                .filter(m -> m.name().startsWith("time.")
                        && m.hasParent()
                        && tree.metrics().metric(m.parent()).name().equals(StandardMetrics.TIME_NAME)
                        && tree.total(m.index()) > 0)
                .toList();
    }

    public static String time(long ns) {
        if (ns == 0) return "-";
        if (ns >= 1_000_000_000L) return String.format(Locale.ROOT, "%.2f s", ns / 1e9);
        if (ns >= 1_000_000L) return String.format(Locale.ROOT, "%.1f ms", ns / 1e6);
        return String.format(Locale.ROOT, "%.0f us", ns / 1e3);
    }

    static String pct(long part, long whole) {
        return whole == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", 100.0 * part / whole);
    }
}
