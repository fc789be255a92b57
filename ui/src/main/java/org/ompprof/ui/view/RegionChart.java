package org.ompprof.ui.view;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.layout.Pane;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.profile.RegionTable;
import org.ompprof.ui.report.Report;

/**
 * Per-thread work and wait bars for one parallel region: the region that encloses the selected
 * context, else the heaviest. Imbalance shows as unequal green bars with the difference in
 * orange (barrier) on the others.
 */
final class RegionChart {
    private static final double ROW = 26, LEFT = 90, TOP = 50;
    private static final Font FONT = Font.font("DejaVu Sans", 12);
    private static final Map<RegionTable.Column, StateColors.Group> COLORS = Map.of(
            RegionTable.Column.WORK,
            StateColors.Group.WORK,
            RegionTable.Column.BARRIER,
            StateColors.Group.BARRIER,
            RegionTable.Column.MUTEX,
            StateColors.Group.MUTEX,
            RegionTable.Column.IDLE,
            StateColors.Group.IDLE,
            RegionTable.Column.OTHER,
            StateColors.Group.OTHER);

    private final ViewerState state;
    private final CallingContextTree tree;
    private final Map<RegionTable.Region, List<RegionTable.Row>> byRegion;
    /** The regions, the heaviest (all threads' time) first, and each one's body nodes: worked out once. */
    private final List<RegionTable.Region> heaviestFirst;

    private final Map<RegionTable.Region, int[]> bodies = new HashMap<>();
    private final Canvas canvas = new Canvas();
    private final Pane holder = new Pane(canvas);

    RegionChart(ViewerState state) {
        this.state = state;
        this.tree = state.tree;
        this.byRegion = state.profile.regions().byRegion();
        byRegion.forEach((region, rows) -> bodies.put(region, RegionTable.bodyNodes(rows)));
        heaviestFirst = new ArrayList<>(byRegion.keySet());
        heaviestFirst.sort(Comparator.comparingLong((RegionTable.Region r) -> byRegion.get(r).stream()
                        .mapToLong(RegionTable.Row::totalNs)
                        .sum())
                .reversed()); // stable: of equal ones, the table's first
        holder.setMinSize(0, 0);
        holder.widthProperty().addListener(o -> redraw());
        holder.heightProperty().addListener(o -> redraw());
        state.selected.addListener(o -> redraw());
    }

    Region view() {
        return holder;
    }

    /**
     * The region whose body holds the node, or the heaviest of those opened in the nearest context of it that
     * opened any; else the profile's heaviest; null when it has none.
     */
    RegionTable.Region regionFor(int node) {
        for (int n = node; n > 0; n = tree.parent(n)) {
            for (RegionTable.Region r : heaviestFirst) if (Arrays.binarySearch(bodies.get(r), n) >= 0) return r;
            for (RegionTable.Region r : heaviestFirst) if (r.node() == n) return r;
        }
        return heaviestFirst.isEmpty() ? null : heaviestFirst.getFirst();
    }

    void redraw() {
        if (!Shown.on(holder)) return; // drawn when its tab comes to the front
        double w = Math.max(300, holder.getWidth()), h = Math.max(200, holder.getHeight());
        GraphicsContext g = Canvases.clear(canvas, w, h, FONT);
        g.setFill(Color.BLACK);
        RegionTable.Region region = regionFor(state.selected.get());
        if (region == null) {
            g.fillText("This profile has no parallel regions.", 10, 20);
            return;
        }
        List<RegionTable.Row> rows = new ArrayList<>(byRegion.get(region));
        rows.sort(Comparator.comparingInt(RegionTable.Row::thread));
        RegionTable.Row first = rows.getFirst();
        String site = first.callSiteFile() == null
                ? ""
                : " at " + first.callSiteFile().replaceAll(".*/", "") + ":" + first.callSiteLine();
        g.fillText(
                String.format(
                        Locale.ROOT,
                        "Parallel region%s, opened in %s: %d instances, imbalance %.2fx (max/mean work)",
                        site,
                        tree.frameOf(region.node()).name(),
                        first.instances(),
                        Report.imbalance(rows)),
                10,
                14);
        legend(g, 10, 34);
        long max = rows.stream().mapToLong(RegionTable.Row::totalNs).max().orElse(1);
        double plot = w - LEFT - 90;
        for (int i = 0; i < rows.size(); i++) bar(g, rows.get(i), TOP + i * ROW, plot, Math.max(1, max));
    }

    private void legend(GraphicsContext g, double x, double y) {
        for (RegionTable.Column c : RegionTable.Column.values()) {
            g.setFill(COLORS.get(c).color);
            g.fillRect(x, y - 5, 10, 10);
            g.setFill(Color.BLACK);
            String label = c.name().toLowerCase(Locale.ROOT);
            g.fillText(label, x + 14, y);
            x += 24 + label.length() * 8;
        }
    }

    private void bar(GraphicsContext g, RegionTable.Row r, double y, double plot, long max) {
        g.setFill(Color.BLACK);
        g.fillText("thread " + r.thread(), 10, y + ROW / 2);
        double x = LEFT;
        for (RegionTable.Column c : RegionTable.Column.values()) {
            double w = plot * r.ns(c) / max;
            g.setFill(COLORS.get(c).color);
            g.fillRect(x, y + 3, w, ROW - 6);
            x += w;
        }
        g.setFill(Color.BLACK);
        g.fillText(MetricFormat.time(r.totalNs()), x + 6, y + ROW / 2);
    }
}
