package org.ompprof.ui.view;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.stage.Stage;
import org.ompprof.calltree.build.ReadOrBuild;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.ProfileReader;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.sampler.recording.Recording;

/**
 * Fills a window with a profile as early as it can: the tree is read on a thread of its own
 * while JavaFX starts, the views go into the window as soon as both are ready, and the
 * timelines (most of a big file) are read once that frame is painted, into the timeline pane.
 */
final class WindowLoad {
    private WindowLoad() {}

    /**
     * @param stage completed once the toolkit runs and the window exists
     * @param shown called on the UI thread with the views, once they are in the window
     */
    static void start(
            ViewOptions o, CompletableFuture<Stage> stage, Consumer<Viewer> shown, Consumer<Throwable> failed) {
        Thread loader = new Thread(
                () -> {
                    try (Recording r = Recording.open(o.file())) {
                        Profile p = LoadTimer.timed("reading the profile", () -> ReadOrBuild.withoutTimelines(r));
                        boolean later = p.timelines().isEmpty() && r.isProfile();
                        Stage s = stage.join();
                        CompletableFuture<Viewer> built = new CompletableFuture<>();
                        Platform.runLater(() -> {
                            Viewer v = new Viewer(
                                    p, r.metadata(), o.file().getFileName().toString(), o.sourcePath(), false);
                            s.getScene().setRoot(v.root());
                            Screenshot.prepare(v, o);
                            if (later) v.timeline.loading();
                            shown.accept(v);
                            Screenshot.afterPulses(1, () -> built.complete(v));
                        });
                        Viewer v = built.join(); // painted: reading now no longer competes with the first frame for the
                        // cores
                        if (later) {
                            List<Timeline> lanes = LoadTimer.timed(
                                    "reading the timelines",
                                    () -> ProfileReader.timelines(r, p.tree().size()));
                            Platform.runLater(() -> v.timeline.lanes(lanes));
                        }
                    } catch (Throwable t) {
                        failed.accept(t);
                    }
                },
                "ompprof-load");
        loader.setDaemon(true);
        loader.start();
    }
}
