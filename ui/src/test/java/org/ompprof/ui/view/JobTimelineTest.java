package org.ompprof.ui.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import javafx.geometry.Point2D;
import javafx.scene.Scene;
import javafx.scene.image.WritableImage;
import javafx.scene.paint.Color;
import javafx.stage.Stage;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.ui.e2e.Ompprof;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The timeline of a job profile (two ranks' profiles merged, rank 1's first) groups its lanes
 * by rank, in rank order, each group under a header naming the rank and its host, the lanes
 * named rank.thread; what the cursor names and the colors drawn are each lane's own rank's.
 * The job (SyntheticJob): rank 0 on node-a, 2 threads, computes 1 unit of 20 ms a step, then
 * waits in MPI_Allreduce; rank 1 on node-b, 3 threads, computes 2 units.
 */
@ExtendWith(ApplicationExtension.class)
class JobTimelineTest {
    private static final int UNIT_MS = 20, STEP_MS = 2 * UNIT_MS + 2;
    private static final SyntheticJob JOB =
            new SyntheticJob(List.of(2, 3), Arrays.asList("node-a", "node-b"), 4, UNIT_MS);

    @TempDir
    static Path work;

    private static Path job;
    private static Profile profile;
    private static Metadata meta;
    private Viewer viewer;

    @BeforeAll
    static void merge() throws Exception {
        job = JOB.write(work, List.of(1, 0));
        profile = ViewCommand.load(job);
        try (Recording r = Recording.open(job)) {
            meta = r.metadata();
        }
    }

    @Start
    void start(Stage stage) {
        viewer = new Viewer(profile, meta, job.getFileName().toString(), List.of(), false);
        stage.setScene(new Scene(viewer.root(), 1300, 800));
        stage.show();
    }

    private void openTimeline(FxRobot robot) {
        robot.clickOn("Timeline");
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Test
    void lanesAreGroupedByRankInRankOrderAndNamedRankDotThread(FxRobot robot) {
        openTimeline(robot);
        LaneLayout layout = viewer.timeline.layout();
        assertEquals(
                List.of(
                        "rank 0 (node-a, 2 threads)",
                        "thread 0.0",
                        "thread 0.1",
                        "rank 1 (node-b, 3 threads)",
                        "thread 1.0",
                        "thread 1.1",
                        "thread 1.2"),
                layout.rows().stream().map(LaneLayout.Row::label).toList());
        // merged in the order rank 1, rank 0: rank 1 holds the merged threads 0-2, rank 0 threads 3-4
        assertEquals(
                List.of(3, 4, 0, 1, 2),
                layout.lanes().stream().map(LaneLayout.Lane::thread).toList());
    }

    /**
     * At 30 ms, rank 0's master waits in MPI_Allreduce while rank 1 still computes: the cursor over
     * each lane names that rank's state, and the lanes are drawn in those states' colors under a
     * header band per rank.
     */
    @Test
    void eachLaneShowsItsOwnRanksThread(FxRobot robot) {
        openTimeline(robot);
        double x = xAt(30);
        assertEquals(List.of("thread 0.0", "mpi.allreduce"), hover(robot, x, "thread 0.0"));
        assertEquals(List.of("thread 0.1", "idle"), hover(robot, x, "thread 0.1"));
        assertEquals(List.of("thread 1.2", "work_parallel"), hover(robot, x, "thread 1.2"));

        WritableImage[] shot = new WritableImage[1];
        robot.interact(() -> shot[0] = viewer.timeline.canvas().snapshot(null, null));
        assertEquals(StateColors.Group.MPI.color, pixel(shot[0], x, middle("thread 0.0")));
        assertEquals(StateColors.Group.IDLE.color, pixel(shot[0], x, middle("thread 0.1")));
        assertEquals(StateColors.Group.WORK.color, pixel(shot[0], x, middle("thread 1.0")));
        assertEquals(TimelinePane.RANK_BAND, pixel(shot[0], x, middle("rank 0 (node-a, 2 threads)")));
        assertEquals(TimelinePane.RANK_BAND, pixel(shot[0], x, middle("rank 1 (node-b, 3 threads)")));
    }

    /** The canvas x of {@code ms} into the recording, with the whole recording in view. */
    private double xAt(double ms) {
        long[] w = viewer.timeline.window();
        double plot = viewer.timeline.canvas().getWidth() - TimelinePane.LABELS;
        return TimelinePane.LABELS + (ms * 1e6 - w[0]) / (w[1] - w[0]) * plot;
    }

    private double middle(String label) {
        LaneLayout.Row row = viewer.timeline.layout().rows().stream()
                .filter(r -> r.label().equals(label))
                .findFirst()
                .orElseThrow();
        return row.y() + row.height() / 2;
    }

    /**
     * What the status line says with the cursor at x over the row labelled {@code label} ("thread
     * 0.0 at 30.0 ms: mpi.allreduce   main > ..."): the thread and the state.
     */
    private List<String> hover(FxRobot robot, double x, String label) {
        robot.interact(() -> viewer.state.status.set(""));
        Point2D at = viewer.timeline.canvas().localToScreen(x, middle(label));
        robot.moveTo(at);
        WaitForAsyncUtils.waitForFxEvents();
        String status = viewer.state.status.get();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(thread \\S+) at [^:]+: (\\S+)   ")
                .matcher(status);
        assertTrue(m.find(), status);
        return List.of(m.group(1), m.group(2));
    }

    private static Color pixel(WritableImage image, double x, double y) {
        return image.getPixelReader().getColor((int) x, (int) y);
    }

    /**
     * {@code ompprof view --screenshot} reads the ranks from the file: the timeline of the job
     * profile has a header band per rank, a rank's own profile none.
     */
    @Test
    void theScreenshotOfTheTimelineGroupsTheRanksToo() throws Exception {
        assertEquals(2, bands(screenshot(job)), "a band per rank");
        assertEquals(0, bands(screenshot(work.resolve("run.rank-0.ompprof"))), "one rank's profile has no groups");
    }

    private static BufferedImage screenshot(Path file) throws Exception {
        Path png = work.resolve(file.getFileName() + ".png");
        Ompprof.Result r = Ompprof.run(
                work,
                Map.of(),
                "view",
                "--screenshot",
                png.toString(),
                "--view",
                "timeline",
                "--size",
                "1000x500",
                file.toString());
        assertEquals(0, r.status(), r.err());
        return ImageIO.read(png.toFile());
    }

    /** The runs of image rows mostly in the header band's color. */
    private static int bands(BufferedImage image) {
        int band = rgb(TimelinePane.RANK_BAND);
        List<Integer> rows = new ArrayList<>();
        for (int y = 0; y < image.getHeight(); y++) {
            int n = 0;
            for (int x = 0; x < image.getWidth(); x++) if ((image.getRGB(x, y) & 0xffffff) == band) n++;
            if (n > image.getWidth() / 2) rows.add(y);
        }
        int runs = 0;
        for (int i = 0; i < rows.size(); i++) if (i == 0 || rows.get(i) != rows.get(i - 1) + 1) runs++;
        assertTrue(runs == 0 || rows.size() >= runs * (LaneLayout.HEADER - 2), "bands of a header's height " + rows);
        return runs;
    }

    private static int rgb(Color c) {
        return (int) Math.round(c.getRed() * 255) << 16
                | (int) Math.round(c.getGreen() * 255) << 8
                | (int) Math.round(c.getBlue() * 255);
    }
}
