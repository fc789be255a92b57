package org.ompprof.ui.view;

import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.ScrollPane;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.Pane;
import javafx.scene.paint.Color;
import javafx.scene.text.Text;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.Metric;

/**
 * The flame graph (outermost frame on top): width is the selected metric's inclusive value.
 * Click a frame to zoom into it and select it; double-click the background, or Escape, to zoom
 * out; hover for the frame's path and value; search matches are drawn in magenta and the
 * selected context outlined.
 */
final class FlameGraphPane {
    static final double ROW = 17;

    private final ViewerState state;
    private final CallingContextTree tree;
    private final Canvas canvas = new Canvas();
    private final Pane holder = new Pane(canvas);
    private final ScrollPane scroll = new ScrollPane(holder);
    private long[] inclusive;
    private int focus = CallingContextTree.ROOT;
    private FlameLayout layout;
    private final double charWidth;

    FlameGraphPane(ViewerState state) {
        this.state = state;
        this.tree = state.tree;
        Text probe = new Text("abcdefghijklmnopqrstuvwxyz_ABCDEFGHIJKLMNOPQRSTUVWXYZ");
        probe.setFont(Canvases.FONT);
        charWidth = probe.getLayoutBounds().getWidth() / probe.getText().length();
        scroll.setFitToWidth(true);
        scroll.viewportBoundsProperty().addListener((o, a, b) -> redraw());
        state.metric.addListener(o -> {
            inclusive = null;
            redraw();
        });
        state.search.addListener(o -> redraw());
        state.selected.addListener(o -> redraw());
        canvas.setOnMouseMoved(this::hover);
        canvas.setOnMouseClicked(this::click);
        scroll.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ESCAPE) zoom(CallingContextTree.ROOT);
        });
    }

    ScrollPane view() {
        return scroll;
    }

    Canvas canvas() {
        return canvas;
    }

    int focus() {
        return focus;
    }

    void zoom(int node) {
        focus = node;
        redraw();
    }

    /** Draws now, at the current width: called on every change, and before a screenshot. */
    void redraw() {
        if (!Shown.on(scroll)) return; // drawn when its tab comes to the front
        double width = Math.max(100, scroll.getViewportBounds().getWidth());
        if (inclusive == null) inclusive = tree.inclusiveByNode(state.metricIndex());
        layout = FlameLayout.of(tree, inclusive, focus, width, 0.5);
        double height = Math.max(scroll.getViewportBounds().getHeight(), (layout.maxDepth + 2) * ROW);
        holder.setPrefSize(width, height);
        GraphicsContext g = Canvases.clear(canvas, width, height, Canvases.FONT);
        int selected = state.selected.get();
        for (int i = 0; i < layout.size(); i++) draw(g, i, selected);
    }

    private void draw(GraphicsContext g, int i, int selected) {
        int n = layout.node.get(i);
        double x = layout.x.get(i), y = layout.depth.get(i) * ROW, w = layout.width.get(i);
        Frame f = tree.frameOf(n);
        g.setFill(state.matches(n) ? FrameColors.MATCH : FrameColors.of(f));
        g.fillRect(x, y, Math.max(w - 0.5, 0.5), ROW - 1);
        if (n == selected) {
            g.setStroke(Color.BLACK);
            g.setLineWidth(2);
            g.strokeRect(x + 1, y + 1, Math.max(w - 2, 1), ROW - 3);
        }
        int chars = (int) ((w - 6) / charWidth);
        if (chars >= 3) {
            String name = f.name();
            g.setFill(Color.BLACK);
            g.fillText(name.length() <= chars ? name : name.substring(0, chars - 2) + "..", x + 3, y + ROW / 2);
        }
    }

    private int nodeAt(MouseEvent e) {
        return layout == null ? -1 : layout.at(e.getX(), (int) (e.getY() / ROW));
    }

    private void hover(MouseEvent e) {
        int n = nodeAt(e);
        if (n < 0) return;
        Metric m = state.metric.get();
        state.status.set(tree.frameOf(n).detailedName() + "   " + m.name() + " "
                + MetricFormat.withShare(m, inclusive[n], inclusive[CallingContextTree.ROOT]) + "   (click to zoom)");
    }

    private void click(MouseEvent e) {
        scroll.requestFocus();
        if (e.getButton() != MouseButton.PRIMARY) {
            zoom(CallingContextTree.ROOT);
            return;
        }
        int n = nodeAt(e);
        if (n < 0) {
            if (e.getClickCount() == 2) zoom(CallingContextTree.ROOT);
            return;
        }
        focus = n;
        state.selected.set(n);
        redraw();
    }

    /** Clicks the frame of {@code node} as a user would (for tests and keyboard users); false if it is not drawn. */
    boolean screenPoint(int node, double[] out) {
        for (int i = 0; i < layout.size(); i++) {
            if (layout.node.get(i) == node) {
                out[0] = layout.x.get(i) + layout.width.get(i) / 2;
                out[1] = layout.depth.get(i) * ROW + ROW / 2;
                return true;
            }
        }
        return false;
    }
}
