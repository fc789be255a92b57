package org.ompprof.ui.view;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableColumn;
import javafx.stage.FileChooser;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.export.FlameGraphOptions;
import org.ompprof.calltree.export.FlameGraphWriter;

/** Exports what the window shows: the front table as CSV, the front view as PNG, the tree as a flame graph page. */
final class ViewExport {
    private ViewExport() {}

    static void csv(Viewer v) throws IOException {
        Path p = choose(v, "table.csv", "CSV", "*.csv");
        if (p != null) csv(v, p);
    }

    static void png(Viewer v) throws IOException {
        Path p = choose(v, v.selectedView().name().toLowerCase() + ".png", "PNG image", "*.png");
        if (p != null) png(v, p);
    }

    static void html(Viewer v) throws IOException {
        Path p = choose(v, "flame.html", "HTML page", "*.html");
        if (p != null) html(v, p);
    }

    private static Path choose(Viewer v, String name, String kind, String glob) {
        FileChooser c = new FileChooser();
        c.setInitialFileName(name);
        c.getExtensionFilters().add(new FileChooser.ExtensionFilter(kind, glob));
        java.io.File f = c.showSaveDialog(v.root().getScene().getWindow());
        return f == null ? null : f.toPath();
    }

    /**
     * The rows the front table shows: the flat view's rows, or the tree's expanded ones with their
     * depth and path; every visible metric column as raw numbers.
     */
    static void csv(Viewer v, Path file) throws IOException {
        if (v.selectedView() == Viewer.View.FLAT && v.flat() != null) {
            flatCsv(v.flat(), file);
            v.state.status.set("wrote " + file);
            return;
        }
        ContextTable t = v.frontTable();
        CallingContextTree tree = t.tree();
        List<TreeTableColumn<Integer, ?>> columns = t.visibleColumns().stream()
                .filter(c -> c.getUserData() instanceof ContextTable.ColumnMetric)
                .toList();
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("depth,context,path");
            for (TreeTableColumn<Integer, ?> c : columns) w.write("," + quote(c.getText()));
            w.write('\n');
            for (TreeItem<Integer> row : t.visibleRows()) {
                int node = row.getValue();
                w.write(tree.depth(node) + "," + quote(tree.frameOf(node).name()) + ","
                        + quote(Paths.text(tree, node)));
                for (TreeTableColumn<Integer, ?> c : columns) {
                    ContextTable.ColumnMetric m = (ContextTable.ColumnMetric) c.getUserData();
                    long value = m.inclusive()
                            ? tree.inclusive(node, m.metric().index())
                            : tree.exclusive(node, m.metric().index());
                    w.write("," + value);
                }
                w.write('\n');
            }
        }
        v.state.status.set("wrote " + file);
    }

    private static void flatCsv(FlatTable flat, Path file) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("name,where," + quote(flat.table().getColumns().get(1).getText()) + ","
                    + quote(flat.table().getColumns().get(2).getText()) + "\n");
            for (FlatTable.Row r : flat.table().getItems()) {
                w.write(quote(r.name()) + "," + quote(r.where()) + "," + r.exclusive() + "," + r.inclusive() + "\n");
            }
        }
    }

    static void png(Viewer v, Path file) throws IOException {
        Png.write(v.content(v.selectedView()), file);
        v.state.status.set("wrote " + file);
    }

    static void html(Viewer v, Path file) throws IOException {
        FlameGraphOptions o = FlameGraphOptions.titled("ompprof: " + v.state.file)
                .withMetric(v.state.metric.get().name());
        try (OutputStream out = Files.newOutputStream(file)) {
            FlameGraphWriter.write(v.state.tree, o, out);
        }
        v.state.status.set("wrote " + file);
    }

    private static String quote(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }
}
