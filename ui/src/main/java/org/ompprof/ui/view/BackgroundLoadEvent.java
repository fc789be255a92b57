package org.ompprof.ui.view;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR event {@code ompprof.ViewerLoad}: one piece of work the viewer does off its UI thread
 * (reading the profile, its timelines, building the callers tree or the flat view), with its
 * duration: what a user waits for behind a progress bar.
 */
@Name("ompprof.ViewerLoad")
@Label("Viewer Load")
@Category({"ompprof", "Viewer"})
@Description("Work the viewer does in the background while its progress bar shows")
@StackTrace(false)
final class BackgroundLoadEvent extends jdk.jfr.Event {
    @Label("What")
    String what;

    @Label("Succeeded")
    boolean succeeded;

    /** Runs {@code work} inside the event (one per load: allocating it is nothing next to the work). */
    static <T> T timed(String what, java.util.function.Supplier<T> work) {
        BackgroundLoadEvent e = new BackgroundLoadEvent();
        e.begin();
        boolean ok = false;
        try {
            T out = work.get();
            ok = true;
            return out;
        } finally {
            e.end();
            if (e.shouldCommit()) {
                e.what = what;
                e.succeeded = ok;
                e.commit();
            }
        }
    }
}
