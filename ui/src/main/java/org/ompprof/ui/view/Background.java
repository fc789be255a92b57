package org.ompprof.ui.view;

import java.util.function.Consumer;
import java.util.function.Supplier;
import javafx.application.Platform;
import javafx.concurrent.Task;
import javafx.scene.control.ProgressBar;

/**
 * Runs long work (building the callers tree, the flat view) off the UI thread with the window's
 * progress bar showing, and hands the result back on the UI thread. Screenshots run it inline,
 * since they must not return before the picture is complete.
 */
interface Background {
    <T> void run(String what, Supplier<T> work, Consumer<T> done);

    static Background inline() {
        return new Background() {
            @Override
            public <T> void run(String what, Supplier<T> work, Consumer<T> done) {
                done.accept(LoadTimer.timed(what, work));
            }
        };
    }

    static Background async(ProgressBar progress, ViewerState state) {
        return new Background() {
            @Override
            public <T> void run(String what, Supplier<T> work, Consumer<T> done) {
                Task<T> task = new Task<>() {
                    @Override
                    protected T call() {
                        return LoadTimer.timed(what, work);
                    }
                };
                progress.setVisible(true);
                progress.setProgress(ProgressBar.INDETERMINATE_PROGRESS);
                state.status.set(what + "...");
                task.setOnSucceeded(e -> {
                    progress.setVisible(false);
                    state.status.set("");
                    done.accept(task.getValue());
                });
                task.setOnFailed(e -> {
                    progress.setVisible(false);
                    state.status.set(what + " failed: " + task.getException());
                });
                Thread t = new Thread(task, "ompprof-" + what.replace(' ', '-'));
                t.setDaemon(true);
                t.start();
            }
        };
    }

    /** Whether the caller is on the UI thread (work handed back must be). */
    static boolean onUiThread() {
        return Platform.isFxApplicationThread();
    }
}
