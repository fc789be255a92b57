package org.ompprof.ui.view;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.sampler.recording.Metadata;

/** Renders one view of a profile to a PNG with JavaFX's headless platform: no display, no user. */
final class Screenshot {
    private Screenshot() {}

    static void take(Profile profile, Metadata meta, ViewOptions o) throws Exception {
        System.setProperty("glass.platform", "Headless");
        System.setProperty("prism.order", "sw");
        CompletableFuture<Void> done = new CompletableFuture<>();
        Platform.startup(() -> {
            try {
                Viewer v = new Viewer(profile, meta, o.file().getFileName().toString(), o.sourcePath(), true);
                Stage stage = new Stage();
                stage.setScene(new Scene(v.root(), o.width(), o.height()));
                stage.show();
                prepare(v, o);
                afterPulses(3, () -> {
                    try {
                        v.flame.redraw();
                        v.timeline.redraw();
                        v.regions.redraw();
                        Png.write(v.root().getScene().snapshot(null), o.screenshot());
                        done.complete(null);
                    } catch (IOException | RuntimeException e) {
                        done.completeExceptionally(e);
                    }
                });
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
        try {
            done.get(5, TimeUnit.MINUTES);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof Exception x) throw x;
            throw e;
        } finally {
            Platform.exit();
        }
    }

    /** Selects the context the options name (or the hot path's end) and brings the view forward. */
    static void prepare(Viewer v, ViewOptions o) {
        int node = o.select() == null ? -1 : heaviestMatching(v.state, Pattern.compile(o.select()));
        if (node > 0) v.state.selected.set(node);
        else v.topDown.hotPath();
        v.select(o.view());
        if (o.view() == Viewer.View.FLAT && o.select() != null) v.flat().showLines(false);
    }

    private static int heaviestMatching(ViewerState s, Pattern p) {
        CallingContextTree t = s.tree;
        int best = -1;
        for (int n = 1; n < t.size(); n++) {
            if (p.matcher(t.frameOf(n).name()).find()
                    && (best < 0 || t.inclusive(n, s.metricIndex()) > t.inclusive(best, s.metricIndex()))) best = n;
        }
        return best;
    }

    /** Runs {@code r} on the UI thread after {@code n} more layout passes, so virtual rows and canvases exist. */
    static void afterPulses(int n, Runnable r) {
        if (n == 0) {
            r.run();
            return;
        }
        Platform.runLater(() -> afterPulses(n - 1, r));
        Platform.requestNextPulse();
    }
}
