package org.ompprof.ui.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.TreeTableCell;
import javafx.scene.control.TreeTableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.profile.LineTable;
import org.ompprof.calltree.profile.MutexTable;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.RegionTable;
import org.ompprof.unwinder.stitch.StitchCounters;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * A profile of recursion 500 levels deep (a task recursion folded at its limit is as deep): the hot path opens down to
 * the leaf, and the rows it shows there have their names inside the name column, where a row indented a step per
 * level would start 5,000 pixels to the right of it.
 */
@ExtendWith(ApplicationExtension.class)
class DeepTreeViewTest {
    private static final int DEPTH = 500;

    private Viewer viewer;
    private int leaf;

    @Start
    void start(Stage stage) {
        CallingContextTree tree = CallingContextTree.create();
        int main = frame(tree, "main"), recurse = frame(tree, "recurse"), work = frame(tree, "deep_work");
        int[] path = new int[DEPTH];
        path[0] = main;
        for (int i = 1; i < DEPTH - 1; i++) path[i] = recurse;
        path[DEPTH - 1] = work;
        leaf = tree.path(path);
        tree.addSample(1, path, 0x001, 1_000_000_000L);
        Profile p = new Profile(
                tree,
                List.of(),
                StitchCounters.fromMap(Map.of()),
                Map.of(),
                new RegionTable(List.of()),
                new MutexTable(List.of()),
                new LineTable.Builder().build(),
                1);
        viewer = new Viewer(p, "deep.ompprof", List.of(Path.of("src/test/c").toAbsolutePath()), false);
        stage.setScene(new Scene(viewer.root(), 1300, 800));
        stage.show();
    }

    private static int frame(CallingContextTree tree, String function) {
        return tree.frames().intern(Frame.of(FrameKind.USER, "/work/deep", function, "deep.c", 1));
    }

    @Test
    void theHotPathsDeepRowsShowTheirNames(FxRobot robot) {
        robot.clickOn("Hot path");
        WaitForAsyncUtils.waitForFxEvents();
        TreeTableView<Integer> t = viewer.topDown.view();
        assertEquals(leaf, t.getSelectionModel().getSelectedItem().getValue());
        int shown = 0;
        for (Node n : t.lookupAll(".tree-table-cell")) {
            if (!(n instanceof TreeTableCell<?, ?> c)
                    || c.getTableColumn() != t.getColumns().getFirst()) continue;
            if (c.getText() == null || !c.isVisible()) continue;
            Bounds cell = c.localToScene(c.getBoundsInLocal());
            Node text = c.lookup(".text");
            double textStart = text.localToScene(text.getBoundsInLocal()).getMinX();
            assertTrue(
                    textStart < cell.getMaxX() - 100,
                    c.getText() + " starts at " + textStart + ", its column ends at " + cell.getMaxX());
            shown++;
        }
        assertTrue(shown >= 10, "rows shown: " + shown);
    }

    /** One step a level to 16 levels; beyond, more for each doubling: deeper rows always further right, never far. */
    @Test
    void indentationGrowsWithDepthButSlowly() {
        for (int level = 1; level <= IndentedRow.FULL_LEVELS; level++)
            assertEquals(IndentedRow.STEP * level, IndentedRow.indent(level), 1e-9);
        for (int level = 2; level <= 100_000; level++)
            assertTrue(IndentedRow.indent(level) > IndentedRow.indent(level - 1), "level " + level);
        assertTrue(IndentedRow.indent(4096) <= 32 * IndentedRow.STEP, "4,096 levels: " + IndentedRow.indent(4096));
    }
}
