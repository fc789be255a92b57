package org.ompprof.ui.view;

import javafx.scene.paint.Color;
import org.ompprof.calltree.Frame;

/**
 * Frame colors as flame graphs use them: warm for user code, green for the runtime, aqua for inlined, grey for
 * placeholders; shade by name.
 */
final class FrameColors {
    static final Color MATCH = Color.web("#e040fb");

    private FrameColors() {}

    static Color of(Frame f) {
        if (f == null) return Color.LIGHTGRAY;
        double v = (f.name().hashCode() & 0xffff) / 65535.0;
        return switch (f.kind()) {
            case USER -> Color.hsb(10 + 40 * v, 0.55 + 0.2 * v, 0.98);
            case RUNTIME -> Color.hsb(95 + 30 * v, 0.45, 0.85);
            case INLINED -> Color.hsb(180 + 20 * v, 0.4, 0.92);
            case PLACEHOLDER -> Color.gray(0.72 + 0.1 * v);
        };
    }

    /** A color per function for timeline lanes colored by function. */
    static Color ofName(String name) {
        int h = name.hashCode();
        return Color.hsb((h & 0x3ff) * 360.0 / 1024, 0.45 + ((h >>> 10) & 7) * 0.05, 0.95);
    }
}
