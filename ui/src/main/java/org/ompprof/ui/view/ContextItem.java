package org.ompprof.ui.view;

import java.util.Comparator;
import java.util.function.IntFunction;
import javafx.collections.ObservableList;
import javafx.scene.control.TreeItem;

/**
 * A tree-table row for one context whose children are made when it is first expanded, so a
 * million-context tree costs only the rows a user opens. Children come from a function, which
 * already skips filtered frames, and are sorted by the table's current order.
 */
final class ContextItem extends TreeItem<Integer> {
    private final IntFunction<int[]> children;
    private final Comparator<TreeItem<Integer>> order;
    private boolean loaded;
    private Boolean leaf;

    ContextItem(int node, IntFunction<int[]> children, Comparator<TreeItem<Integer>> order) {
        super(node);
        this.children = children;
        this.order = order;
    }

    int node() {
        return getValue();
    }

    boolean loaded() {
        return loaded;
    }

    @Override
    public boolean isLeaf() {
        if (leaf == null) leaf = loaded ? super.getChildren().isEmpty() : children.apply(node()).length == 0;
        return leaf;
    }

    @Override
    public ObservableList<TreeItem<Integer>> getChildren() {
        if (!loaded) {
            loaded = true;
            int[] kids = children.apply(node());
            TreeItem<?>[] items = new TreeItem<?>[kids.length];
            for (int i = 0; i < kids.length; i++) items[i] = new ContextItem(kids[i], children, order);
            @SuppressWarnings("unchecked")
            TreeItem<Integer>[] typed = (TreeItem<Integer>[]) items;
            java.util.Arrays.sort(typed, order);
            super.getChildren().setAll(typed);
            leaf = kids.length == 0;
        }
        return super.getChildren();
    }
}
