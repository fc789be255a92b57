package org.ompprof.ui.view;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import javafx.scene.Node;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javax.imageio.ImageIO;

/** A node's picture as a PNG file (through java.desktop's ImageIO, so javafx.swing is not needed). */
final class Png {
    private Png() {}

    static void write(Node node, Path file) throws IOException {
        WritableImage image = node.snapshot(null, null);
        write(image, file);
    }

    static void write(WritableImage image, Path file) throws IOException {
        int w = (int) image.getWidth(), h = (int) image.getHeight();
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
        PixelReader r = image.getPixelReader();
        int[] row = new int[w];
        for (int y = 0; y < h; y++) {
            r.getPixels(0, y, w, 1, javafx.scene.image.PixelFormat.getIntArgbInstance(), row, 0, w);
            out.setRGB(0, y, w, 1, row, 0, w);
        }
        if (file.toString().equals("-")) { // standard output
            if (!ImageIO.write(out, "png", System.out)) throw new IOException("no PNG writer");
            System.out.flush();
            return;
        }
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
        try {
            if (!ImageIO.write(out, "png", tmp.toFile())) throw new IOException("no PNG writer");
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
