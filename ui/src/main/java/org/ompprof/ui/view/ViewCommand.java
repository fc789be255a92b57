package org.ompprof.ui.view;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import org.ompprof.calltree.build.ReadOrBuild;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.sampler.UserError;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.ui.AotTraining;
import org.ompprof.ui.SelfProfile;

/** {@code ompprof view}: the JavaFX viewer in a window, or one of its views rendered to a PNG. */
public final class ViewCommand {
    private ViewCommand() {}

    public static int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        if (args.contains("--help") || args.contains("-h")) {
            out.print(ViewOptions.USAGE);
            return 0;
        }
        ViewOptions o = ViewOptions.parse(args);
        if (!Files.isRegularFile(o.file())) throw new UserError("view: no profile at " + o.file());
        try (SelfProfile self = SelfProfile.start("view", o.selfProfile(), err)) {
            return view(o, err);
        }
    }

    private static int view(ViewOptions o, PrintStream err) throws Exception {
        if (o.screenshot() != null) {
            Path dir = o.screenshot().toAbsolutePath().getParent();
            if (!Files.isDirectory(dir))
                throw new UserError("view: cannot write " + o.screenshot() + ": no directory " + dir);
            try (Recording r = Recording.open(o.file())) {
                Screenshot.take(load(r), r.metadata(), o);
            }
            AotTraining.workDone();
            err.println("ompprof: wrote " + (o.screenshot().toString().equals("-") ? "standard output" : o.screenshot())
                    + " (" + o.view().name().toLowerCase() + ", " + o.width() + "x" + o.height() + ")");
            return 0;
        }
        if (System.getenv("DISPLAY") == null && System.getenv("WAYLAND_DISPLAY") == null) {
            throw new UserError("view: no display ($DISPLAY is not set); render a view to a file instead with "
                    + "`ompprof view --screenshot OUT.png [--view flame] " + o.file()
                    + "`, or run under ssh -X or xvfb-run");
        }
        return window(o);
    }

    static Profile load(Path file) {
        try (Recording r = Recording.open(file)) {
            return load(r);
        }
    }

    static Profile load(Recording r) {
        return LoadTimer.timed("reading the profile", () -> ReadOrBuild.profile(r));
    }

    /** Shows the window at once with a progress bar while the profile loads (WindowLoad), then the views. */
    private static int window(ViewOptions o) throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        CompletableFuture<Throwable> failure = new CompletableFuture<>();
        CompletableFuture<Stage> window = new CompletableFuture<>();
        WindowLoad.start(o, window, v -> AotTraining.workDone(), t -> {
            failure.complete(t);
            Platform.runLater(() -> window.join().close());
        });
        Platform.startup(() -> window.complete(loadingStage(o, closed)));
        closed.await();
        Platform.exit();
        Throwable t = failure.getNow(null);
        if (t instanceof RuntimeException r) throw r;
        if (t != null) throw new IOException(t);
        return 0;
    }

    static Stage loadingStage(ViewOptions o, CountDownLatch closed) {
        Stage stage = new Stage();
        stage.setTitle("ompprof - " + o.file().getFileName());
        ProgressBar bar = new ProgressBar(ProgressBar.INDETERMINATE_PROGRESS);
        bar.setPrefWidth(360);
        VBox loading = new VBox(10, new Label("Loading " + o.file() + " ..."), bar);
        loading.setStyle("-fx-padding: 40;");
        stage.setScene(new Scene(loading, o.width(), o.height()));
        stage.setOnHidden(e -> closed.countDown());
        stage.show();
        return stage;
    }
}
