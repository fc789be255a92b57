package org.ompprof.ui.view;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextField;
import javafx.scene.control.ToolBar;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import org.ompprof.calltree.Metric;
import org.ompprof.calltree.merge.JobRanks;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.views.BottomUp;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.ui.report.Report;

/**
 * The viewer's window content: a tool bar (metric, search, filter, hot path, export), the
 * views as tabs, the report's findings at the side and a status line with a progress bar. One
 * {@link ViewerState} joins them. Built the same for a window, a screenshot and a test.
 */
final class Viewer {
    /** The views by their command-line names, in tab order. */
    enum View {
        TOPDOWN("Top-down"),
        BOTTOMUP("Bottom-up"),
        FLAT("Flat"),
        FLAME("Flame graph"),
        TIMELINE("Timeline"),
        SOURCE("Source"),
        REGIONS("Regions");

        final String title;

        View(String title) {
            this.title = title;
        }

        static View named(String name) {
            for (View v : values()) if (v.name().equalsIgnoreCase(name)) return v;
            return null;
        }
    }

    final ViewerState state;
    private final Background background;
    private final BorderPane root = new BorderPane();
    private final TabPane tabs = new TabPane();
    private final Map<View, Tab> tabByView = new LinkedHashMap<>();
    private final Map<View, Node> ready = new java.util.EnumMap<>(View.class);
    private final ProgressBar progress = new ProgressBar();
    private final TextField search = new TextField(), filter = new TextField();
    private final ComboBox<Metric> metric = new ComboBox<>();
    final ContextTable topDown;
    private ContextTable bottomUp;
    private FlatTable flat;
    final FlameGraphPane flame;
    final TimelinePane timeline;
    final SourcePane source;
    final RegionChart regions;
    final FindingsPanel findings;

    /** A viewer of a profile whose metadata is not at hand: no ranks to group its threads by. */
    Viewer(Profile profile, String file, List<Path> sourcePath, boolean inline) {
        this(profile, null, file, sourcePath, inline);
    }

    /**
     * @param meta the profile's metadata (or null), for the ranks of a job profile
     * @param inline run long work on the calling thread (screenshots) instead of in the background
     */
    Viewer(Profile profile, Metadata meta, String file, List<Path> sourcePath, boolean inline) {
        state = new ViewerState(profile, JobRanks.of(meta), file);
        background = inline ? Background.inline() : Background.async(progress, state);
        topDown = new ContextTable(state.tree, state, true, n -> n);
        flame = new FlameGraphPane(state);
        timeline = new TimelinePane(state);
        source = new SourcePane(state, sourcePath);
        regions = new RegionChart(state);
        findings = new FindingsPanel(state, Report.findings(profile, meta), this::showContext);
        for (View v : View.values()) {
            Tab t = new Tab(v.title);
            t.setClosable(false);
            t.setId(v.name().toLowerCase());
            tabByView.put(v, t);
            tabs.getTabs().add(t);
        }
        // contents join the scene when first opened: a tab in the scene costs CSS and layout even unseen
        tabByView.get(View.TOPDOWN).setContent(topDown.view());
        ready.put(View.FLAME, flame.view());
        ready.put(View.TIMELINE, timeline.view());
        ready.put(View.SOURCE, source.view());
        ready.put(View.REGIONS, regions.view());
        tabs.getSelectionModel().selectedItemProperty().addListener((o, a, t) -> opened(t));
        SplitPane split = new SplitPane(tabs, findings.view());
        split.setOrientation(Orientation.HORIZONTAL);
        split.setDividerPositions(0.76);
        SplitPane.setResizableWithParent(findings.view(), false);
        root.setTop(toolBar());
        root.setCenter(split);
        root.setBottom(statusBar());
        root.addEventFilter(javafx.scene.input.KeyEvent.KEY_PRESSED, e -> {
            if (new KeyCodeCombination(KeyCode.F, KeyCombination.SHORTCUT_DOWN).match(e)) search.requestFocus();
            else if (e.getCode() == KeyCode.F3) topDown.findNext();
        });
    }

    BorderPane root() {
        return root;
    }

    private ToolBar toolBar() {
        metric.getItems()
                .setAll(state.tree.metrics().all().stream()
                        .filter(m -> state.tree.total(m.index()) != 0)
                        .toList());
        metric.setValue(state.metric.get());
        metric.setCellFactory(v -> new MetricCell());
        metric.setButtonCell(new MetricCell());
        metric.valueProperty().addListener((o, a, m) -> {
            if (m != null) state.metric.set(m);
        });
        metric.setTooltip(new Tooltip("the metric that weighs the flame graph, the hot path and the flat view"));
        search.setId("search");
        filter.setId("filter");
        search.setPromptText("search (regex), Enter: next");
        search.setOnAction(e -> {
            state.search.set(pattern(search.getText()));
            topDown.findNext();
            flame.redraw();
        });
        filter.setPromptText("hide frames (regex)");
        filter.setOnAction(e -> state.filter.set(pattern(filter.getText())));
        Button hot = new Button("Hot path");
        hot.setTooltip(new Tooltip("expand the heaviest path from the selected context (H)"));
        hot.setOnAction(e -> {
            select(View.TOPDOWN);
            topDown.hotPath();
        });
        MenuButton export = new MenuButton("Export");
        export.getItems()
                .addAll(
                        item("Table as CSV...", () -> ViewExport.csv(this)),
                        item("View as PNG...", () -> ViewExport.png(this)),
                        item("Flame graph HTML...", () -> ViewExport.html(this)));
        return new ToolBar(new Label("Metric"), metric, search, filter, hot, export);
    }

    private static MenuItem item(String text, ThrowingRunnable action) {
        MenuItem i = new MenuItem(text);
        i.setOnAction(e -> {
            try {
                action.run();
            } catch (IOException x) {
                throw new java.io.UncheckedIOException(x);
            }
        });
        return i;
    }

    interface ThrowingRunnable {
        void run() throws IOException;
    }

    private HBox statusBar() {
        Label status = new Label();
        status.textProperty().bind(state.status);
        status.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(status, Priority.ALWAYS);
        progress.setVisible(false);
        progress.setPrefWidth(160);
        Label file = new Label(state.file);
        HBox bar = new HBox(10, status, progress, file);
        bar.setPadding(new Insets(3, 6, 3, 6));
        return bar;
    }

    private Pattern pattern(String text) {
        if (text == null || text.isBlank()) return null;
        try {
            return Pattern.compile(text);
        } catch (PatternSyntaxException e) {
            state.status.set("not a regular expression: " + e.getDescription() + " in " + text);
            return null;
        }
    }

    // ---- tabs ----

    void select(View v) {
        tabs.getSelectionModel().select(tabByView.get(v));
        opened(tabByView.get(v));
    }

    View selectedView() {
        Tab t = tabs.getSelectionModel().getSelectedItem();
        return tabByView.entrySet().stream()
                .filter(e -> e.getValue() == t)
                .map(Map.Entry::getKey)
                .findFirst()
                .orElse(View.TOPDOWN);
    }

    Node content(View v) {
        Node n = tabByView.get(v).getContent();
        return n != null ? n : ready.get(v);
    }

    private void opened(Tab t) {
        View v = tabByView.entrySet().stream()
                .filter(e -> e.getValue() == t)
                .map(Map.Entry::getKey)
                .findFirst()
                .orElse(null);
        if (v != null && t.getContent() == null && ready.containsKey(v)) t.setContent(ready.remove(v));
        if (v == View.BOTTOMUP && bottomUp == null && t.getContent() == null) {
            t.setContent(new Label("building the callers view..."));
            background.run("building the callers view", () -> BottomUp.of(state.tree), tree -> {
                bottomUp = new ContextTable(
                        tree,
                        state,
                        false,
                        row -> BottomUp.heaviestContext(state.tree, tree, row, state.metricIndex()));
                t.setContent(bottomUp.view());
            });
        } else if (v == View.FLAT && flat == null) {
            flat = new FlatTable(state, background);
            t.setContent(flat.view());
        } else if (v == View.FLAME || v == View.TIMELINE || v == View.REGIONS) {
            // after the tab pane has shown the content: hidden panes do not draw
            javafx.application.Platform.runLater(
                    v == View.FLAME ? flame::redraw : v == View.TIMELINE ? timeline::redraw : regions::redraw);
        }
    }

    ContextTable bottomUp() {
        return bottomUp;
    }

    FlatTable flat() {
        return flat;
    }

    /** The table of the view in front, for CSV export: top-down unless bottom-up is in front. */
    ContextTable frontTable() {
        return selectedView() == View.BOTTOMUP && bottomUp != null ? bottomUp : topDown;
    }

    private void showContext() {
        View v = selectedView();
        if (v == View.BOTTOMUP || v == View.FLAT) select(View.TOPDOWN);
    }

    private static final class MetricCell extends ListCell<Metric> {
        @Override
        protected void updateItem(Metric m, boolean empty) {
            super.updateItem(m, empty);
            setText(empty || m == null ? null : m.name());
        }
    }
}
