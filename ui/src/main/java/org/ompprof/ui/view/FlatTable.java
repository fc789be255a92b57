package org.ompprof.ui.view;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.FXCollections;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.Metric;
import org.ompprof.calltree.StandardMetrics;
import org.ompprof.calltree.profile.LineTable;
import org.ompprof.calltree.views.FlatProfile;

/**
 * The flat view: every function with its own (exclusive) and total (inclusive, recursion
 * counted once) value of the selected metric; or every source line with the time spent
 * executing it. Selecting a row selects the heaviest context of that function or line.
 */
final class FlatTable {
    /** One row: a function or a source line, and the context a selection goes to. */
    record Row(String name, String where, long exclusive, long inclusive, int context) {}

    private final ViewerState state;
    private final CallingContextTree tree;
    private final Background background;
    private final TableView<Row> table = new TableView<>();
    private final BorderPane root = new BorderPane(table);
    private final ToggleButton functions = new ToggleButton("Functions"), lines = new ToggleButton("Source lines");
    private final TableColumn<Row, Long> exclusive = number("", Row::exclusive), inclusive = number("", Row::inclusive);

    FlatTable(ViewerState state, Background background) {
        this.state = state;
        this.tree = state.tree;
        this.background = background;
        ToggleGroup mode = new ToggleGroup();
        functions.setToggleGroup(mode);
        lines.setToggleGroup(mode);
        functions.setSelected(true);
        mode.selectedToggleProperty().addListener((o, a, b) -> {
            if (b == null) a.setSelected(true);
            else refresh();
        });
        HBox bar = new HBox(
                6, functions, lines, new Label("  rows select the heaviest context of their function or line"));
        bar.setPadding(new Insets(4));
        root.setTop(bar);
        TableColumn<Row, String> name = text("Function", Row::name, 300), where = text("Where", Row::where, 360);
        table.getColumns().addAll(List.of(name, exclusive, inclusive, where));
        table.setTableMenuButtonVisible(true);
        table.getSelectionModel().selectedItemProperty().addListener((o, a, row) -> {
            if (row != null && row.context() > 0) state.selected.set(row.context());
        });
        state.metric.addListener(o -> refresh());
        refresh();
    }

    Region view() {
        return root;
    }

    TableView<Row> table() {
        return table;
    }

    void showLines(boolean on) {
        (on ? lines : functions).setSelected(true);
    }

    private void refresh() {
        Metric m = state.metric.get();
        boolean byLine = lines.isSelected();
        exclusive.setText(byLine ? "self time" : m.name() + " (E)");
        inclusive.setText(byLine ? "" : m.name() + " (I)");
        inclusive.setVisible(!byLine);
        exclusive.setUserData(byLine ? null : m);
        inclusive.setUserData(m);
        background.run(
                byLine ? "totalling lines" : "totalling functions",
                () -> byLine ? lineRows() : functionRows(m),
                rows -> {
                    table.setItems(FXCollections.observableList(rows));
                    table.getSortOrder().clear();
                });
    }

    private List<Row> functionRows(Metric m) {
        long[] inc = tree.inclusiveByNode(m.index());
        int[] heaviest = new int[tree.frames().size()];
        for (int n = 1; n < tree.size(); n++) {
            int f = tree.frame(n);
            if (heaviest[f] == 0 || inc[n] > inc[heaviest[f]]) heaviest[f] = n;
        }
        List<Row> out = new ArrayList<>();
        for (FlatProfile.Row r : FlatProfile.of(tree, m.index())) {
            out.add(new Row(r.frame().name(), where(r.frame()), r.exclusive(), r.inclusive(), heaviest[r.frameId()]));
        }
        return out;
    }

    private List<Row> lineRows() {
        Map<String, long[]> byLine = new HashMap<>(); // key -> {self ns, heaviest node, its self ns}
        Map<String, String> names = new HashMap<>();
        LineTable t = state.profile.lines();
        for (int i = 0; i < t.size(); i++) {
            LineTable.Row r = t.row(i);
            if (r.exclusiveNs() == 0) continue;
            Frame f = tree.frameOf(r.node());
            String key = (f.file() == null ? f.name() : f.file()) + ":" + r.line();
            long[] v = byLine.computeIfAbsent(key, k -> new long[3]);
            v[0] += r.exclusiveNs();
            if (r.exclusiveNs() > v[2]) {
                v[1] = r.node();
                v[2] = r.exclusiveNs();
            }
            names.putIfAbsent(key, f.name());
        }
        List<Row> out = new ArrayList<>();
        byLine.forEach((k, v) -> out.add(new Row(names.get(k), k, v[0], 0, (int) v[1])));
        out.sort((a, b) -> Long.compare(b.exclusive(), a.exclusive()));
        return out;
    }

    private static String where(Frame f) {
        if (f.file() != null) return f.file();
        return f.module() == null ? "" : f.module();
    }

    private static TableColumn<Row, String> text(
            String title, java.util.function.Function<Row, String> get, double width) {
        TableColumn<Row, String> c = new TableColumn<>(title);
        c.setCellValueFactory(v -> new ReadOnlyObjectWrapper<>(get.apply(v.getValue())));
        c.setPrefWidth(width);
        return c;
    }

    private TableColumn<Row, Long> number(String title, java.util.function.ToLongFunction<Row> get) {
        TableColumn<Row, Long> c = new TableColumn<>(title);
        c.setCellValueFactory(v -> new ReadOnlyObjectWrapper<>(get.applyAsLong(v.getValue())));
        c.setCellFactory(x -> new TableCell<>() {
            @Override
            protected void updateItem(Long v, boolean empty) {
                super.updateItem(v, empty);
                Metric m = getTableColumn().getUserData() instanceof Metric given
                        ? given
                        : tree.metrics().metric(StandardMetrics.TIME);
                setText(empty || v == null ? null : MetricFormat.withShare(m, v, tree.total(m.index())));
            }
        });
        c.setPrefWidth(150);
        c.setStyle("-fx-alignment: CENTER-RIGHT;");
        c.setSortType(TableColumn.SortType.DESCENDING);
        return c;
    }
}
