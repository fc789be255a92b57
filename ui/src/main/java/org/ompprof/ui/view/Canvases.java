package org.ompprof.ui.view;

import javafx.geometry.VPos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;

/** The one way the viewer's canvases start a frame: sized, cleared to white, text centered on its line. */
final class Canvases {
    static final Font FONT = Font.font("DejaVu Sans", 11);

    private Canvases() {}

    static GraphicsContext clear(Canvas canvas, double width, double height, Font font) {
        canvas.setWidth(width);
        canvas.setHeight(height);
        GraphicsContext g = canvas.getGraphicsContext2D();
        g.setFill(Color.WHITE);
        g.fillRect(0, 0, width, height);
        g.setFont(font);
        g.setTextBaseline(VPos.CENTER);
        return g;
    }
}
