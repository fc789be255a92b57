package org.ompprof.ui.view;

import java.util.List;
import javafx.collections.FXCollections;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.Region;
import org.ompprof.ui.report.Finding;

/** The report's findings, costliest first; clicking one selects the context it is about. */
final class FindingsPanel {
    private final BorderPane root = new BorderPane();
    private final ListView<Finding> list = new ListView<>();

    FindingsPanel(ViewerState state, List<Finding> findings, Runnable showContext) {
        Label title = new Label(findings.isEmpty() ? "Findings: nothing stands out" : "Findings, by cost");
        title.setStyle("-fx-font-weight: bold;");
        title.setPadding(new Insets(4));
        root.setTop(title);
        root.setCenter(list);
        list.setItems(FXCollections.observableList(findings));
        list.setCellFactory(v -> new ListCell<>() {
            @Override
            protected void updateItem(Finding f, boolean empty) {
                super.updateItem(f, empty);
                setText(empty || f == null ? null : f.text());
                setWrapText(true);
                setPrefWidth(0);
            }
        });
        list.getSelectionModel().selectedItemProperty().addListener((o, a, f) -> {
            if (f != null && f.node() > 0) {
                state.selected.set(f.node());
                showContext.run();
            }
        });
        root.setPrefWidth(300);
        root.setMinWidth(0);
    }

    Region view() {
        return root;
    }

    ListView<Finding> list() {
        return list;
    }
}
