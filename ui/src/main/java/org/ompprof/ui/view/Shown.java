package org.ompprof.ui.view;

import javafx.scene.Node;

/** Whether a pane is on screen: in a scene, and neither it nor a parent hidden (a tab not in front is hidden). */
final class Shown {
    private Shown() {}

    static boolean on(Node node) {
        if (node.getScene() == null) return false;
        for (Node n = node; n != null; n = n.getParent()) if (!n.isVisible()) return false;
        return true;
    }
}
