package org.ompprof.ui.view;

import java.util.regex.Pattern;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Metric;
import org.ompprof.calltree.StandardMetrics;
import org.ompprof.calltree.merge.JobRanks;
import org.ompprof.calltree.profile.Profile;

/**
 * What the panes of one window share: the profile, the metric that weighs views, the selected
 * context (a node of the top-down tree, -1 for none), the search and filter patterns, the
 * status line, and the MPI ranks of a job profile. Panes listen to it and set it; none talks
 * to another directly.
 */
final class ViewerState {
    final Profile profile;
    final CallingContextTree tree;
    final ObjectProperty<Metric> metric;
    final IntegerProperty selected = new SimpleIntegerProperty(-1);
    /** Names matching it are highlighted; null for no search. */
    final ObjectProperty<Pattern> search = new SimpleObjectProperty<>();
    /** Frames matching it are hidden from the tree views, their children shown in their place; null for none. */
    final ObjectProperty<Pattern> filter = new SimpleObjectProperty<>();

    final StringProperty status = new SimpleStringProperty("");
    final String file;
    /** The ranks a job profile merges, {@link JobRanks#NONE} for any other. */
    final JobRanks ranks;

    ViewerState(Profile profile, JobRanks ranks, String file) {
        this.profile = profile;
        this.tree = profile.tree();
        this.ranks = ranks;
        this.file = file;
        this.metric = new SimpleObjectProperty<>(tree.metrics().metric(StandardMetrics.TIME));
    }

    int metricIndex() {
        return metric.get().index();
    }

    /** Whether {@code node}'s name (or the compiler's symbol behind it) matches the search. */
    boolean matches(int node) {
        return matches(search.get(), node);
    }

    /** Whether {@code node} is hidden by the filter (on its name or the compiler's symbol behind it). */
    boolean hidden(int node) {
        return matches(filter.get(), node);
    }

    private boolean matches(Pattern p, int node) {
        if (p == null || node <= 0) return false;
        var frame = tree.frameOf(node);
        return p.matcher(frame.name()).find()
                || frame.symbol() != null && p.matcher(frame.symbol()).find();
    }
}
