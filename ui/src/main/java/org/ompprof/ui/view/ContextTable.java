package org.ompprof.ui.view;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntUnaryOperator;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableCell;
import javafx.scene.control.TreeTableColumn;
import javafx.scene.control.TreeTableView;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import org.eclipse.collections.impl.list.mutable.primitive.IntArrayList;
import org.ompprof.blame.BlameKind;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.Metric;
import org.ompprof.calltree.StandardMetrics;

/**
 * A calling-context tree as a tree table: the context's name, then for every metric of the
 * profile an inclusive and an exclusive column (value and share of the total); sortable,
 * columns shown and hidden from the table's menu, rows made on expansion. Used for the
 * top-down tree and for the bottom-up (callers) tree; {@code toTopDown} maps a row to the
 * top-down context the window's selection names.
 */
final class ContextTable {
    /** A child must carry at least this share of its parent for the hot path to go on into it. */
    static final double HOT = 0.5;

    private static final List<String> SHOWN = List.of(
            StandardMetrics.TIME_NAME, BlameKind.BARRIER.metric(), BlameKind.MUTEX_METRIC, BlameKind.IDLE.metric());

    private final CallingContextTree tree;
    private final ViewerState state;
    private final IntUnaryOperator toTopDown;
    private final boolean topDown;
    private final TreeTableView<Integer> table = new TreeTableView<>();
    private final TreeTableColumn<Integer, String> nameColumn = new TreeTableColumn<>("Calling context");
    private boolean revealing;
    private TreeTableColumn<Integer, Long> defaultSort;

    ContextTable(CallingContextTree tree, ViewerState state, boolean topDown, IntUnaryOperator toTopDown) {
        this.tree = tree;
        this.state = state;
        this.topDown = topDown;
        this.toTopDown = toTopDown;
        nameColumn.setCellValueFactory(
                c -> new ReadOnlyObjectWrapper<>(name(c.getValue().getValue())));
        nameColumn.setCellFactory(c -> new NameCell());
        nameColumn.setPrefWidth(420);
        table.getColumns().add(nameColumn);
        addMetricColumns();
        table.setTableMenuButtonVisible(true);
        table.setFixedCellSize(24); // rows of one height: scrolling need not measure them
        table.setRowFactory(t -> new IndentedRow());
        table.setShowRoot(false);
        table.getSelectionModel().setSelectionMode(SelectionMode.SINGLE);
        table.setSortPolicy(t -> {
            sortLoaded(t.getRoot());
            return true;
        });
        table.getSelectionModel().selectedItemProperty().addListener((o, was, item) -> selectedRow(item));
        table.setOnKeyPressed(e -> {
            if (new KeyCodeCombination(KeyCode.C, KeyCombination.SHORTCUT_DOWN).match(e)) copyPath();
            else if (e.getCode() == KeyCode.H && !e.isShortcutDown()) hotPath();
        });
        if (topDown) state.selected.addListener((o, was, node) -> reveal(node.intValue()));
        state.search.addListener(o -> table.refresh());
        state.filter.addListener(o -> rebuild());
        state.metric.addListener(o -> sortLoaded(table.getRoot()));
        rebuild();
        // after the policy and the rows: the default policy fails a sort without rows, and a failed sort is undone
        if (defaultSort != null) table.getSortOrder().add(defaultSort);
    }

    TreeTableView<Integer> view() {
        return table;
    }

    CallingContextTree tree() {
        return tree;
    }

    // ---- columns ----

    /**
     * Top-down: an inclusive and an exclusive column per metric. Bottom-up: one per metric, the
     * function's own (exclusive) value when called through the row's chain of callers, which is
     * the callers tree's inclusive value (it holds exclusive values only).
     */
    private void addMetricColumns() {
        for (Metric m : tree.metrics().all()) {
            if (tree.total(m.index()) == 0) continue;
            boolean shown = SHOWN.contains(m.name());
            List<TreeTableColumn<Integer, Long>> added = topDown
                    ? List.of(column(m, true, " (I)"), column(m, false, " (E)"))
                    : List.of(column(m, true, " (E)"));
            added.getFirst().setVisible(shown);
            if (added.size() > 1) added.get(1).setVisible(shown && m.name().equals(StandardMetrics.TIME_NAME));
            table.getColumns().addAll(added);
            if (m.index() == StandardMetrics.TIME) {
                added.getFirst().setSortType(TreeTableColumn.SortType.DESCENDING);
                defaultSort = added.getFirst();
            }
        }
    }

    private TreeTableColumn<Integer, Long> column(Metric m, boolean inclusive, String suffix) {
        TreeTableColumn<Integer, Long> c = new TreeTableColumn<>(m.name() + suffix);
        c.setUserData(new ColumnMetric(m, inclusive));
        c.setCellValueFactory(
                v -> new ReadOnlyObjectWrapper<>(value(v.getValue().getValue(), m.index(), inclusive)));
        long total = tree.total(m.index());
        c.setCellFactory(x -> new TreeTableCell<>() {
            @Override
            protected void updateItem(Long v, boolean empty) {
                super.updateItem(v, empty);
                setText(empty || v == null ? null : MetricFormat.withShare(m, v, total));
            }
        });
        c.setComparator(Long::compare);
        c.setPrefWidth(inclusive ? 150 : 130);
        c.setStyle("-fx-alignment: CENTER-RIGHT;");
        return c;
    }

    /** What a metric column shows. */
    record ColumnMetric(Metric metric, boolean inclusive) {}

    private long value(int node, int metric, boolean inclusive) {
        return inclusive ? tree.inclusive(node, metric) : tree.exclusive(node, metric);
    }

    private String name(int node) {
        Frame f = tree.frameOf(node);
        return f == null ? "<all>" : f.name();
    }

    // ---- rows ----

    private void rebuild() {
        int keep = state.selected.get();
        ContextItem root = new ContextItem(CallingContextTree.ROOT, this::visibleChildren, this::order);
        root.setExpanded(true);
        table.setRoot(root);
        if (topDown && keep >= 0) reveal(keep);
    }

    /** Children of {@code node} with filtered frames replaced by their own visible children. */
    int[] visibleChildren(int node) {
        if (state.filter.get() == null) return tree.children(node);
        IntArrayList out = new IntArrayList();
        IntArrayList todo = IntArrayList.newListWith(tree.children(node));
        while (!todo.isEmpty()) {
            int c = todo.removeAtIndex(todo.size() - 1);
            if (state.hidden(c)) todo.addAll(tree.children(c));
            else out.add(c);
        }
        return out.toArray();
    }

    private int order(TreeItem<Integer> a, TreeItem<Integer> b) {
        Comparator<TreeItem<Integer>> c = table.getComparator();
        if (c != null && !table.getSortOrder().isEmpty()) return c.compare(a, b);
        int m = state.metricIndex();
        return Long.compare(tree.inclusive(b.getValue(), m), tree.inclusive(a.getValue(), m));
    }

    private void sortLoaded(TreeItem<Integer> item) {
        if (item == null) return;
        List<TreeItem<Integer>> stack = new ArrayList<>(List.of(item));
        while (!stack.isEmpty()) {
            TreeItem<Integer> i = stack.removeLast();
            if (i instanceof ContextItem ci && !ci.loaded()) continue;
            i.getChildren().sort(this::order);
            stack.addAll(i.getChildren());
        }
    }

    // ---- selection ----

    private void selectedRow(TreeItem<Integer> item) {
        if (item == null || revealing) return;
        int node = toTopDown.applyAsInt(item.getValue());
        if (node >= 0) state.selected.set(node);
        Metric m = state.metric.get();
        long value = tree.inclusive(item.getValue(), m.index());
        state.status.set(Paths.text(tree, item.getValue()) + "   " + m.name() + " "
                + MetricFormat.withShare(m, value, tree.total(m.index())));
    }

    /** Expands the rows down to {@code node} (a node of this table's tree) and selects it. */
    void reveal(int node) {
        if (node < 0 || node >= tree.size() || table.getRoot() == null) return;
        TreeItem<Integer> item = table.getRoot();
        for (int n : reversed(tree.pathToRoot(node))) {
            if (state.hidden(n)) continue;
            item.setExpanded(true);
            TreeItem<Integer> next = null;
            for (TreeItem<Integer> c : item.getChildren()) if (c.getValue() == n) next = c;
            if (next == null) break;
            item = next;
        }
        if (item == table.getSelectionModel().getSelectedItem()) return;
        revealing = true;
        try {
            table.getSelectionModel().select(item);
        } finally {
            revealing = false;
        }
        int row = table.getRow(item);
        if (row >= 0) table.scrollTo(Math.max(0, row - 3));
    }

    private static int[] reversed(int[] a) {
        int[] out = new int[a.length];
        for (int i = 0; i < a.length; i++) out[i] = a[a.length - 1 - i];
        return out;
    }

    /**
     * Expands the heaviest path from the selected row (or the top) while a child holds at least half its parent;
     * selects its end.
     */
    void hotPath() {
        int m = state.metricIndex();
        TreeItem<Integer> item = table.getSelectionModel().getSelectedItem();
        if (item == null) item = table.getRoot();
        long value = item.getValue() == CallingContextTree.ROOT ? tree.total(m) : tree.inclusive(item.getValue(), m);
        boolean first = true;
        while (true) {
            TreeItem<Integer> best = null;
            for (TreeItem<Integer> c : item.getChildren()) {
                if (best == null || tree.inclusive(c.getValue(), m) > tree.inclusive(best.getValue(), m)) best = c;
            }
            if (best == null) break;
            long v = tree.inclusive(best.getValue(), m);
            if (v == 0 || !first && v < HOT * value) break;
            item.setExpanded(true);
            item = best;
            value = v;
            first = false;
        }
        table.getSelectionModel().select(item);
        int row = table.getRow(item);
        if (row >= 0) table.scrollTo(Math.max(0, row - 3));
    }

    /** The selected context's path, outermost first, one frame per line, on the clipboard. */
    void copyPath() {
        TreeItem<Integer> item = table.getSelectionModel().getSelectedItem();
        if (item == null) return;
        ClipboardContent c = new ClipboardContent();
        c.putString(pathText(item.getValue()));
        Clipboard.getSystemClipboard().setContent(c);
        state.status.set("copied the path of " + name(item.getValue()));
    }

    String pathText(int node) {
        StringBuilder s = new StringBuilder();
        for (int f : tree.framePath(node))
            s.append(tree.frames().frame(f).detailedName()).append('\n');
        return s.toString();
    }

    /** Selects the next context (after the selected one, in order of weight) whose name matches the search. */
    void findNext() {
        if (state.search.get() == null) return;
        int m = state.metricIndex();
        List<Integer> hits = new ArrayList<>();
        for (int n = 1; n < tree.size(); n++) if (state.matches(n) && !state.hidden(n)) hits.add(n);
        if (hits.isEmpty()) {
            state.status.set("no context matches " + state.search.get().pattern());
            return;
        }
        hits.sort(Comparator.comparingLong((Integer n) -> -tree.inclusive(n, m)).thenComparingInt(n -> n));
        TreeItem<Integer> at = table.getSelectionModel().getSelectedItem();
        int i = at == null ? -1 : hits.indexOf(at.getValue());
        int next = hits.get((i + 1) % hits.size());
        reveal(next);
        selectedRow(table.getSelectionModel().getSelectedItem());
        state.status.set("match " + ((i + 1) % hits.size() + 1) + " of " + hits.size() + ": " + state.status.get());
    }

    /** The rows now visible (expanded), in order, with their depth; for CSV export. */
    List<TreeItem<Integer>> visibleRows() {
        List<TreeItem<Integer>> out = new ArrayList<>();
        for (int i = 0; i < table.getExpandedItemCount(); i++) out.add(table.getTreeItem(i));
        return out;
    }

    List<TreeTableColumn<Integer, ?>> visibleColumns() {
        return new ArrayList<>(table.getVisibleLeafColumns());
    }

    private final class NameCell extends TreeTableCell<Integer, String> {
        @Override
        protected void updateItem(String name, boolean empty) {
            super.updateItem(name, empty);
            if (empty || name == null || getTableRow() == null || getTableRow().getItem() == null) {
                setText(null);
                setStyle("");
                return;
            }
            int node = getTableRow().getItem();
            Frame f = tree.frameOf(node);
            setText(name);
            String color = f == null
                    ? ""
                    : switch (f.kind()) {
                        case RUNTIME -> "-fx-text-fill: #2e7d32;";
                        case PLACEHOLDER -> "-fx-text-fill: #757575; -fx-font-style: italic;";
                        case INLINED -> "-fx-text-fill: #00838f;";
                        case USER -> "";
                    };
            setStyle(color + (state.matches(node) ? "-fx-background-color: #ffe082;" : ""));
        }
    }
}
