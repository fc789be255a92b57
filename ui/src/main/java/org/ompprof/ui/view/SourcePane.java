package org.ompprof.ui.view;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import javafx.collections.FXCollections;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.paint.Color;
import javafx.scene.shape.Rectangle;
import javafx.scene.text.Font;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.profile.LineTable;

/**
 * The selected context's source file, each line with a bar for the time spent on it within
 * that context (executing it, or in what it calls); the hottest line in view. When the file is
 * not found, or the code has no line information, a note says so and what to do.
 */
final class SourcePane {
    private static final double BAR = 90;
    private static final Font MONO = Font.font("DejaVu Sans Mono", 12);

    private final ViewerState state;
    private final CallingContextTree tree;
    private final BorderPane root = new BorderPane();
    private final Label title = new Label();
    private final TextField searchPath = new TextField();
    private final ListView<Integer> lines = new ListView<>();
    private SourceFinder finder;
    private List<String> text = List.of();
    private long[] inclusive = new long[0], exclusive = new long[0];
    private long max = 1;

    SourcePane(ViewerState state, List<Path> search) {
        this.state = state;
        this.tree = state.tree;
        this.finder = new SourceFinder(search);
        searchPath.setText(String.join(":", search.stream().map(Path::toString).toList()));
        searchPath.setPromptText("source search path: dir1:dir2");
        Button apply = new Button("Search");
        apply.setOnAction(e -> {
            finder = new SourceFinder(SourceFinder.parse(searchPath.getText()));
            show(state.selected.get());
        });
        searchPath.setOnAction(apply.getOnAction());
        HBox bar = new HBox(6, new Label("Source path"), searchPath, apply);
        HBox.setHgrow(searchPath, Priority.ALWAYS);
        bar.setPadding(new Insets(4));
        title.setPadding(new Insets(2, 6, 2, 6));
        title.setWrapText(true);
        root.setTop(new javafx.scene.layout.VBox(bar, title));
        root.setCenter(lines);
        lines.setCellFactory(v -> new LineCell());
        lines.setFixedCellSize(18);
        state.selected.addListener((o, a, b) -> show(b.intValue()));
        show(state.selected.get());
    }

    Region view() {
        return root;
    }

    String title() {
        return title.getText();
    }

    List<Integer> shownLines() {
        return lines.getItems();
    }

    long inclusiveAt(int line) {
        return line < inclusive.length ? inclusive[line] : 0;
    }

    void show(int node) {
        Frame f = node > 0 ? tree.frameOf(node) : null;
        if (f == null) {
            note("Select a context to see its source.");
            return;
        }
        if (f.file() == null) {
            note("No line information for " + f.name() + ": build with -g to see its source here.");
            return;
        }
        Optional<Path> path = finder.find(f.file());
        if (path.isEmpty()) {
            note("Source not found: " + f.file() + " (searched "
                    + (finder.searchPath().isEmpty() ? "no directories" : finder.searchPath())
                    + "). Add its directory to the source path above, or start with --source-path DIR.");
            return;
        }
        try {
            text = Files.readAllLines(path.get(), StandardCharsets.UTF_8);
        } catch (IOException | java.io.UncheckedIOException e) {
            note("Cannot read " + path.get() + ": " + e.getMessage());
            return;
        }
        times(node);
        long total = 0;
        int hottest = 0;
        for (int i = 1; i < inclusive.length; i++) {
            total += exclusive[i];
            if (inclusive[i] > inclusive[hottest]) hottest = i;
        }
        long noLine = tree.exclusive(node, org.ompprof.calltree.StandardMetrics.TIME) - total;
        title.setText(f.name() + " in " + path.get()
                + "   (bars: time on each line in this context, executing it or in its calls; "
                + MetricFormat.time(total) + " on its own lines"
                + (noLine > 0 ? ", " + MetricFormat.time(noLine) + " at code with no line number" : "")
                + ")");
        lines.setItems(FXCollections.observableList(
                java.util.stream.IntStream.rangeClosed(1, text.size()).boxed().toList()));
        if (hottest > 0) lines.scrollTo(Math.max(0, hottest - 5));
    }

    private void times(int node) {
        inclusive = new long[text.size() + 1];
        exclusive = new long[text.size() + 1];
        max = 1;
        for (LineTable.Row r : state.profile.lines().of(node)) {
            if (r.line() > text.size()) continue;
            inclusive[r.line()] = r.inclusiveNs();
            exclusive[r.line()] = r.exclusiveNs();
            max = Math.max(max, r.inclusiveNs());
        }
    }

    private void note(String s) {
        title.setText(s);
        text = List.of();
        inclusive = new long[0];
        lines.setItems(FXCollections.observableArrayList());
    }

    private final class LineCell extends ListCell<Integer> {
        private final Rectangle bar = new Rectangle(0, 10, Color.web("#fb8c00"));
        private final Rectangle self = new Rectangle(0, 10, Color.web("#e53935"));
        private final Label value = new Label();
        private final Label number = new Label();
        private final Label code = new Label();
        private final HBox box;

        LineCell() {
            StackPane bars = new StackPane(bar, self);
            bars.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
            bars.setMinWidth(BAR);
            bars.setMaxWidth(BAR);
            value.setMinWidth(70);
            value.setAlignment(javafx.geometry.Pos.CENTER_RIGHT);
            number.setMinWidth(44);
            number.setAlignment(javafx.geometry.Pos.CENTER_RIGHT);
            number.setTextFill(Color.GRAY);
            code.setFont(MONO);
            number.setFont(MONO);
            box = new HBox(8, bars, value, number, code);
        }

        @Override
        protected void updateItem(Integer line, boolean empty) {
            super.updateItem(line, empty);
            if (empty || line == null || line > text.size()) {
                setGraphic(null);
                return;
            }
            long inc = line < inclusive.length ? inclusive[line] : 0,
                    exc = line < exclusive.length ? exclusive[line] : 0;
            bar.setWidth(BAR * inc / max);
            self.setWidth(BAR * exc / max);
            value.setText(inc == 0 ? "" : MetricFormat.time(inc));
            number.setText(Integer.toString(line));
            code.setText(text.get(line - 1).replace("\t", "    "));
            setGraphic(box);
        }
    }
}
