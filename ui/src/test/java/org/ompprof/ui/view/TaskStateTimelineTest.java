package org.ompprof.ui.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import javafx.geometry.Point2D;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.image.WritableImage;
import javafx.scene.paint.Color;
import javafx.scene.shape.Rectangle;
import javafx.stage.Stage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.sampler.omp.OmpState;
import org.ompprof.ui.e2e.CPrograms;
import org.ompprof.ui.e2e.Ompprof;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The timeline shows task scheduling as a state of its own, by the name every other surface uses: a real recording
 * of task_create.c (2 threads; one creates 300,000 tasks, most of its time in the runtime's task code). The legend
 * has task_scheduling in its color, the creating thread's lane is drawn in it, and the cursor there names the state.
 */
@ExtendWith(ApplicationExtension.class)
class TaskStateTimelineTest {
    private static final String STATE = OmpState.TASK_SCHEDULING.displayName();

    @TempDir // deleted after the class, with the recording
    static Path work;

    private static Path file;
    private static Profile profile;
    private Viewer viewer;

    @BeforeAll
    static void record() throws Exception {
        file = work.resolve("task_create.ompprof");
        Ompprof.Result r =
                Ompprof.record(work, 2, file, CPrograms.clang("task_create").toString(), "300000");
        assertEquals(0, r.status(), r.err());
        profile = ViewCommand.load(file);
    }

    @Start
    void start(Stage stage) {
        viewer = new Viewer(profile, file.getFileName().toString(), List.of(), false);
        stage.setScene(new Scene(viewer.root(), 1300, 600));
        stage.show();
    }

    @Test
    void theLegendAndTheLanesShowTaskScheduling(FxRobot robot) {
        assertEquals(StateColors.Group.TASK_SCHEDULING, StateColors.group(OmpState.TASK_SCHEDULING.code()));
        robot.clickOn("Timeline");
        WaitForAsyncUtils.waitForFxEvents();
        Label legend = robot.lookup((Node n) -> n instanceof Label l && STATE.equals(l.getText()))
                .queryAs(Label.class);
        assertEquals(StateColors.Group.TASK_SCHEDULING.color, ((Rectangle) legend.getGraphic()).getFill());

        WritableImage[] shot = new WritableImage[1];
        robot.interact(() -> shot[0] = viewer.timeline.canvas().snapshot(null, null));
        Color color = StateColors.Group.TASK_SCHEDULING.color;
        int drawn = 0;
        double atX = -1, atY = -1; // the middle of the first run of three columns in the color
        for (LaneLayout.Lane lane : viewer.timeline.layout().lanes()) {
            double y = lane.y() + lane.height() / 2;
            int run = 0;
            for (int x = (int) TimelinePane.LABELS; x < (int) shot[0].getWidth(); x++) {
                run = shot[0].getPixelReader().getColor(x, (int) y).equals(color) ? run + 1 : 0;
                if (run > 0) drawn++;
                if (run == 3 && atX < 0) {
                    atX = x - 1;
                    atY = y;
                }
            }
        }
        assertTrue(drawn >= 20 && atX > 0, "columns drawn in the task_scheduling color: " + drawn);
        robot.interact(() -> viewer.state.status.set(""));
        robot.moveTo(viewer.timeline.canvas().localToScreen(new Point2D(atX, atY)));
        WaitForAsyncUtils.waitForFxEvents();
        String status = viewer.state.status.get();
        assertTrue(status.matches("^thread \\S+ at [^:]+: " + STATE + "   .*"), status);
    }
}
