package org.ompprof.ui.view;

import java.util.List;
import java.util.Locale;
import javafx.collections.FXCollections;
import javafx.geometry.Insets;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;
import javafx.scene.input.MouseEvent;
import javafx.scene.input.ScrollEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Pane;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.scene.shape.Rectangle;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.profile.DeviceTable;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.calltree.profile.TimelineWindow;
import org.ompprof.sampler.omp.OmpState;

/**
 * One lane per thread over time, colored by OMPT state or by the function at a chosen depth
 * of each sample's context. Each pixel column shows the one sample in effect there (picked by
 * binary search), so ten million samples draw as fast as a screen's width. Scroll to zoom
 * around the cursor, drag to pan, double-click to see everything; hover names the context.
 * Below the threads, one lane per device that ran kernels or transfers: target regions as a
 * grey band, kernels and transfers (to / from the device) on it. In a job profile the threads'
 * lanes are grouped by MPI rank ({@link LaneLayout}).
 */
final class TimelinePane {
    static final double LANE = 22, LABELS = 110, AXIS = 22;
    /** A rank's group header: a band across the pane, a line on its top edge. */
    static final Color RANK_BAND = Color.web("#e3e9f0"), RANK_LINE = Color.web("#8797aa");

    private static final Color REGION = Color.gray(0.88),
            KERNEL = Color.web("#d35400"),
            TO_DEVICE = Color.web("#2e86c1"),
            FROM_DEVICE = Color.web("#17a589");

    private final ViewerState state;
    private final CallingContextTree tree;
    private List<Timeline> lanes;
    private LaneLayout layout;
    private boolean pending;
    private final DeviceTable devices;
    private final List<Integer> deviceLanes;
    private final Canvas canvas = new Canvas();
    private final Pane holder = new Pane(canvas);
    private final BorderPane root = new BorderPane();
    private final ChoiceBox<String> colorBy =
            new ChoiceBox<>(FXCollections.observableArrayList("OpenMP state", "function at depth"));
    private final Spinner<Integer> depth = new Spinner<>(1, 500, 3);
    private long start, end;
    private long from, to;
    private double dragX = Double.NaN;
    private long dragFrom, dragTo;
    private int[] columns = new int[0];

    TimelinePane(ViewerState state) {
        this.state = state;
        this.tree = state.tree;
        this.devices = state.profile.devices();
        this.deviceLanes = DeviceBars.devices(devices);
        span(state.profile.timelines());
        colorBy.getSelectionModel().select(0);
        colorBy.setOnAction(x -> redraw());
        depth.valueProperty().addListener(o -> redraw());
        depth.setPrefWidth(80);
        depth.disableProperty()
                .bind(colorBy.getSelectionModel().selectedIndexProperty().isEqualTo(0));
        HBox bar = new HBox(8, new Label("Color by"), colorBy, depth, legend());
        bar.getChildren()
                .forEach(n -> ((Region) n).setMinWidth(Region.USE_PREF_SIZE)); // overflow rather than truncate labels
        bar.setPadding(new Insets(4));
        root.setTop(bar);
        root.setCenter(holder);
        holder.setMinSize(0, 0);
        holder.widthProperty().addListener(o -> redraw());
        holder.heightProperty().addListener(o -> redraw());
        canvas.setOnScroll(this::zoom);
        canvas.setOnMousePressed(m -> {
            dragX = m.getX();
            dragFrom = from;
            dragTo = to;
        });
        canvas.setOnMouseDragged(this::pan);
        canvas.setOnMouseReleased(m -> dragX = Double.NaN);
        canvas.setOnMouseMoved(this::hover);
        canvas.setOnMouseClicked(m -> {
            if (m.getClickCount() == 2) window(start, end);
            else if (m.isStillSincePress()) select(m);
        });
        state.selected.addListener(o -> redraw());
    }

    private void span(List<Timeline> timelines) {
        lanes = timelines;
        layout = LaneLayout.of(lanes, state.ranks, deviceLanes);
        long s = Long.MAX_VALUE, e = Long.MIN_VALUE;
        for (Timeline t : lanes) {
            if (t.size() == 0) continue;
            s = Math.min(s, t.timeNs(0));
            e = Math.max(e, t.timeNs(t.size() - 1) + Math.max(1, t.weightNs(t.size() - 1)));
        }
        for (DeviceTable.Activity a : devices.activities()) {
            if (!deviceLanes.contains(a.device())) continue;
            s = Math.min(s, a.startNs());
            e = Math.max(e, a.endNs());
        }
        start = s == Long.MAX_VALUE ? 0 : s;
        end = e <= start ? start + 1 : e;
        from = start;
        to = end;
    }

    /** Says the lanes are still being read (a big profile's timelines load after the window shows). */
    void loading() {
        pending = true;
        redraw();
    }

    /** Whether the lanes are still being read. */
    boolean pending() {
        return pending;
    }

    /** The lanes, once read. */
    void lanes(List<Timeline> timelines) {
        pending = false;
        span(timelines);
        redraw();
    }

    private HBox legend() {
        HBox box = new HBox(6);
        for (StateColors.Group g : StateColors.Group.values()) {
            Rectangle r = new Rectangle(10, 10, g.color);
            Label l = new Label(g.label, r);
            l.setMinWidth(Region.USE_PREF_SIZE);
            box.getChildren().add(l);
        }
        return box;
    }

    Region view() {
        return root;
    }

    /** Where the rows are drawn. */
    LaneLayout layout() {
        return layout;
    }

    Canvas canvas() {
        return canvas;
    }

    long[] window() {
        return new long[] {from, to};
    }

    /** Shows [from, to), within the recording. */
    void window(long newFrom, long newTo) {
        long span = Math.max(1000, newTo - newFrom);
        from = Math.max(start, Math.min(newFrom, end - span));
        to = Math.min(end, from + span);
        redraw();
    }

    void colorByFunction(int atDepth) {
        colorBy.getSelectionModel().select(1);
        depth.getValueFactory().setValue(atDepth);
        redraw();
    }

    private double plotWidth() {
        return Math.max(1, canvas.getWidth() - LABELS);
    }

    void redraw() {
        if (!Shown.on(root)) return; // drawn when its tab comes to the front
        double w = Math.max(200, holder.getWidth()), h = Math.max(AXIS + LANE, holder.getHeight());
        GraphicsContext g = Canvases.clear(canvas, w, h, Canvases.FONT);
        int px = (int) plotWidth();
        if (columns.length != px) columns = new int[px];
        if (pending) {
            g.setFill(Color.BLACK);
            g.fillText("reading the timelines...", LABELS, AXIS + LANE);
            return;
        }
        for (LaneLayout.Row row : layout.rows()) {
            if (row.y() > h) break;
            switch (row) {
                case LaneLayout.Header r -> drawHeader(g, r, w);
                case LaneLayout.Lane r -> drawLane(g, r, px);
                case LaneLayout.Device r -> drawDeviceLane(g, r, px);
            }
        }
        axis(g, px);
    }

    /** A rank's group starts: a band across the pane with a line on top, naming the rank. */
    private static void drawHeader(GraphicsContext g, LaneLayout.Header r, double w) {
        g.setFill(RANK_BAND);
        g.fillRect(0, r.y(), w, r.height());
        g.setStroke(RANK_LINE);
        g.strokeLine(0, r.y() + 0.5, w, r.y() + 0.5);
        g.setFill(Color.BLACK);
        g.fillText(r.label(), 6, r.y() + r.height() / 2);
    }

    private void drawLane(GraphicsContext g, LaneLayout.Lane row, int px) {
        Timeline t = lanes.get(row.index());
        double y = row.y();
        g.setFill(Color.BLACK);
        g.fillText(row.label(), 6, y + LANE / 2);
        if (t.size() == 0) return;
        TimelineWindow.fill(t, from, to, columns);
        boolean byState = colorBy.getSelectionModel().getSelectedIndex() == 0;
        int d = depth.getValue(), selected = state.selected.get();
        for (int x = 0; x < px; ) {
            int i = columns[x];
            Color c = i < 0 ? null : byState ? StateColors.group(t.state(i)).color : functionColor(t.node(i), d);
            int run = x + 1;
            while (run < px && same(t, columns[run], i, byState, d)) run++;
            if (c != null) {
                g.setFill(c);
                g.fillRect(LABELS + x, y + 2, run - x, LANE - 4);
                if (selected > 0 && i >= 0 && under(t.node(i), selected)) {
                    g.setFill(Color.BLACK);
                    g.fillRect(LABELS + x, y + LANE - 4, run - x, 2);
                }
            }
            x = run;
        }
    }

    private void drawDeviceLane(GraphicsContext g, LaneLayout.Device row, int px) {
        int device = row.device();
        double y = row.y();
        g.setFill(Color.BLACK);
        g.fillText(row.label(), 6, y + LANE / 2);
        for (DeviceBars.Bar b : DeviceBars.layout(devices, device, from, to, px)) {
            boolean region = b.kind() == DeviceTable.Kind.REGION;
            g.setFill(region ? REGION : colorOf(devices.activities().get(b.index())));
            g.fillRect(LABELS + b.x0(), y + (region ? 1 : 4), b.x1() - b.x0(), LANE - (region ? 2 : 8));
        }
    }

    private static Color colorOf(DeviceTable.Activity a) {
        if (a.kind() == DeviceTable.Kind.KERNEL) return KERNEL;
        return a.detail() == 3 || a.detail() == 19 ? FROM_DEVICE : TO_DEVICE;
    }

    private boolean same(Timeline t, int a, int b, boolean byState, int d) {
        if (a == b) return true;
        if (a < 0 || b < 0) return false;
        if (byState) return StateColors.group(t.state(a)) == StateColors.group(t.state(b)) && t.node(a) == t.node(b);
        return t.node(a) == t.node(b);
    }

    private Color functionColor(int node, int d) {
        int n = ancestorAt(node, d);
        return n <= 0 ? Color.gray(0.85) : FrameColors.ofName(tree.frameOf(n).name());
    }

    private int ancestorAt(int node, int d) {
        int n = node;
        while (n > 0 && tree.depth(n) > d) n = tree.parent(n);
        return n;
    }

    private boolean under(int node, int ancestor) {
        for (int n = node; n > 0; n = tree.parent(n)) if (n == ancestor) return true;
        return false;
    }

    private void axis(GraphicsContext g, int px) {
        g.setStroke(Color.gray(0.6));
        g.setFill(Color.BLACK);
        double span = to - from;
        double step = Math.pow(10, Math.floor(Math.log10(span / 6)));
        if (span / step > 12) step *= 5;
        else if (span / step > 6) step *= 2;
        long first = (long) (Math.ceil((from - start) / step) * step);
        for (double t = first; t + start <= to; t += step) {
            double x = LABELS + (t + start - from) / span * px;
            g.strokeLine(x, AXIS - 5, x, AXIS);
            g.fillText(seconds(t), x + 2, AXIS / 2 - 1);
        }
        g.strokeLine(LABELS, AXIS, LABELS + px, AXIS);
    }

    private static String seconds(double ns) {
        if (ns == 0) return "0";
        if (ns >= 1e9) return digits(ns / 1e9) + " s";
        if (ns >= 1e6) return digits(ns / 1e6) + " ms";
        return digits(ns / 1e3) + " us";
    }

    /** Three significant digits, but whole numbers from 100 on (an hour's ticks read 3500 s, not 3.50e+03 s). */
    private static String digits(double v) {
        return String.format(Locale.ROOT, v >= 100 ? "%.0f" : "%.3g", v);
    }

    private long timeAt(double x) {
        return from + (long) ((x - LABELS) / plotWidth() * (to - from));
    }

    private void zoom(ScrollEvent e) {
        if (e.getDeltaY() == 0 || e.getX() < LABELS) return;
        double f = e.getDeltaY() > 0 ? 1 / 1.25 : 1.25;
        long at = timeAt(e.getX());
        window(at - (long) ((at - from) * f), at + (long) ((to - at) * f));
    }

    /** Zooms in by {@code factor} around the middle (for keyboard users and tests). */
    void zoomBy(double factor) {
        long mid = from + (to - from) / 2, half = (long) ((to - from) / 2 / factor);
        window(mid - half, mid + half);
    }

    private void pan(MouseEvent m) {
        if (Double.isNaN(dragX)) return;
        long shift = (long) ((dragX - m.getX()) / plotWidth() * (dragTo - dragFrom));
        window(dragFrom + shift, dragTo + shift);
    }

    /** The sample under (x, y): {lane, index}, or null. */
    private int[] sampleAt(double x, double y) {
        if (!(layout.at(y) instanceof LaneLayout.Lane row) || x < LABELS) return null;
        int lane = row.index();
        int px = (int) (x - LABELS);
        Timeline t = lanes.get(lane);
        if (t.size() == 0 || px >= columns.length) return null;
        int[] one =
                TimelineWindow.fill(t, timeAt(x), timeAt(x) + Math.max(1, (to - from) / columns.length), new int[1]);
        return one[0] < 0 ? null : new int[] {lane, one[0]};
    }

    private void hover(MouseEvent m) {
        if (deviceHover(m.getX(), m.getY())) return;
        int[] s = sampleAt(m.getX(), m.getY());
        if (s == null) return;
        Timeline t = lanes.get(s[0]);
        int node = t.node(s[1]);
        state.status.set(String.format(
                Locale.ROOT,
                "thread %s at %s: %s   %s",
                state.ranks.label(t.thread()),
                seconds(t.timeNs(s[1]) - start),
                OmpState.nameOf(t.state(s[1])),
                Paths.text(tree, node)));
    }

    /** Names the kernel or transfer (else the target region) under the cursor on a device lane; false if not on one. */
    private boolean deviceHover(double x, double y) {
        if (!(layout.at(y) instanceof LaneLayout.Device row) || x < LABELS) return false;
        int px = (int) (x - LABELS);
        DeviceTable.Activity hit = null;
        for (DeviceBars.Bar b : DeviceBars.layout(devices, row.device(), from, to, (int) plotWidth())) {
            if (px >= b.x0() && px < b.x1()) hit = devices.activities().get(b.index()); // work bars come after regions
        }
        if (hit != null) {
            String what = hit.kind() == DeviceTable.Kind.TRANSFER
                    ? String.format(Locale.ROOT, "transfer of %,d bytes", hit.bytes())
                    : hit.kind().name().toLowerCase(Locale.ROOT);
            state.status.set(String.format(
                    Locale.ROOT,
                    "device %d at %s: %s, %s, launched by thread %s in %s",
                    hit.device(),
                    seconds(hit.startNs() - start),
                    what,
                    seconds(hit.durationNs()),
                    state.ranks.label(hit.thread()),
                    hit.launchNode() < 0 ? "an unknown context" : Paths.text(tree, hit.launchNode())));
        }
        return true;
    }

    private void select(MouseEvent m) {
        int[] s = sampleAt(m.getX(), m.getY());
        if (s != null) state.selected.set(lanes.get(s[0]).node(s[1]));
    }
}
