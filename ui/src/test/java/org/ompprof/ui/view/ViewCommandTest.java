package org.ompprof.ui.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.ui.e2e.CPrograms;
import org.ompprof.ui.e2e.Ompprof;

/** {@code ompprof view} from the command line, in its own JVM: screenshots of every view, and its one-line errors. */
class ViewCommandTest {
    @TempDir
    static Path work;

    private static Path file;

    @BeforeAll
    static void record() throws Exception {
        file = work.resolve("imbalance.ompprof");
        Ompprof.Result r = Ompprof.run(
                work,
                Map.of("OMP_NUM_THREADS", "2"),
                "record",
                "-o",
                file.toString(),
                "--",
                CPrograms.clang("imbalance_loop").toString(),
                "0.05",
                "2");
        assertEquals(0, r.status(), r.err());
    }

    @Test
    void everyViewRendersToAPngOfTheAskedSize() throws Exception {
        for (Viewer.View v : Viewer.View.values()) {
            Path png = work.resolve(v.name().toLowerCase() + ".png");
            Ompprof.Result r = Ompprof.run(
                    work,
                    Map.of(),
                    "view",
                    "--screenshot",
                    png.toString(),
                    "--view",
                    v.name().toLowerCase(),
                    "--size",
                    "900x500",
                    "--select",
                    "work_units",
                    file.toString());
            assertEquals(0, r.status(), r.err());
            BufferedImage image = ImageIO.read(png.toFile());
            assertEquals(900, image.getWidth());
            assertEquals(500, image.getHeight());
            assertTrue(colors(image) > 20, v + " is a picture, not a blank");
        }
    }

    private static int colors(BufferedImage image) {
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 3)
            for (int x = 0; x < image.getWidth(); x += 3) seen.add(image.getRGB(x, y));
        return seen.size();
    }

    @Test
    void withoutADisplayItSaysToUseScreenshot() throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("DISPLAY", null);
        env.put("WAYLAND_DISPLAY", null);
        Ompprof.Result r = Ompprof.run(work, env, "view", file.toString());
        assertEquals(2, r.status());
        assertTrue(r.err().contains("no display") && r.err().contains("--screenshot"), r.err());
        assertEquals(
                1, r.err().strip().lines().filter(l -> l.startsWith("ompprof:")).count(), r.err());
    }

    @Test
    void badArgumentsGetOneLine() throws Exception {
        assertOneLine(
                Ompprof.run(work, Map.of(), "view", "--screenshot", "x.png", "--view", "pie", file.toString()),
                "unknown view 'pie'");
        assertOneLine(
                Ompprof.run(work, Map.of(), "view", "--screenshot", "x.png", "--size", "big", file.toString()),
                "--size needs WIDTHxHEIGHT");
        assertOneLine(
                Ompprof.run(work, Map.of(), "view", "--screenshot", "/nonexistent/x.png", file.toString()),
                "no directory /nonexistent");
        assertOneLine(
                Ompprof.run(
                        work,
                        Map.of(),
                        "view",
                        "--screenshot",
                        "x.png",
                        work.resolve("missing.ompprof").toString()),
                "no profile at");
        Path bad = work.resolve("bad.ompprof");
        Files.write(bad, new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        Ompprof.Result r = Ompprof.run(work, Map.of(), "view", "--screenshot", "x.png", bad.toString());
        assertEquals(2, r.status(), r.err());
    }

    private static void assertOneLine(Ompprof.Result r, String text) {
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains(text), r.err());
    }
}
