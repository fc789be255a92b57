package org.ompprof.ui.view;

import java.util.Locale;
import javafx.scene.control.TreeTableRow;

/**
 * A context table's row, indented one step per level down to {@link #FULL_LEVELS}, and by two steps more for each
 * doubling of the depth below that. Deep recursion (a 500-level task chain, a 300-level call recursion) otherwise
 * indents its rows thousands of pixels, past the end of the name column, and the hot path opens on rows with no
 * names.
 */
final class IndentedRow extends TreeTableRow<Integer> {
    /** Levels indented in full. */
    static final int FULL_LEVELS = 16;

    /** JavaFX's own step for a tree table row ({@code -fx-indent}), in pixels. */
    static final double STEP = 10;

    @Override
    protected void updateItem(Integer node, boolean empty) {
        super.updateItem(node, empty);
        int level = empty || getTreeItem() == null ? 0 : getTreeTableView().getTreeItemLevel(getTreeItem());
        setStyle(level <= FULL_LEVELS ? "" : String.format(Locale.ROOT, "-fx-indent: %.3fpx;", indent(level) / level));
    }

    /** The whole indentation of a row {@code level} levels deep, in pixels. */
    static double indent(int level) {
        if (level <= FULL_LEVELS) return STEP * level;
        return STEP * (FULL_LEVELS + 2 * Math.log((double) level / FULL_LEVELS) / Math.log(2));
    }
}
