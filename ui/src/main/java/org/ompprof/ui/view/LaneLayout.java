package org.ompprof.ui.view;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ompprof.calltree.merge.JobRanks;
import org.ompprof.calltree.profile.Timeline;

/**
 * Where the timeline's rows go, top to bottom below its time axis: a lane per thread, then a
 * lane per device. In a job profile the thread lanes are grouped by MPI rank in rank order, as
 * trace viewers of MPI jobs show them, each group under a header row naming the rank, its host
 * and its number of threads, and each lane named rank.thread as {@code report} names threads;
 * threads no rank holds follow ungrouped. Without ranks the lanes are the profile's, in its
 * order, named "thread N", where they always were.
 *
 * @param rows by their place, top to bottom
 * @param bottom the y just below the last row
 */
record LaneLayout(List<Row> rows, double bottom) {
    static final double HEADER = 18;

    /** A row of the timeline: its top and height on the canvas, and what its label column says. */
    sealed interface Row permits Header, Lane, Device {
        double y();

        String label();

        default double height() {
            return TimelinePane.LANE;
        }
    }

    /** A rank's group begins: {@code threads} lanes follow. */
    record Header(JobRanks.Rank rank, int threads, String label, double y) implements Row {
        @Override
        public double height() {
            return HEADER;
        }
    }

    /** @param index the thread's timeline among the pane's */
    record Lane(int index, int thread, String label, double y) implements Row {}

    /** @param index the device's place among the pane's device lanes */
    record Device(int index, int device, String label, double y) implements Row {}

    LaneLayout {
        rows = List.copyOf(rows);
    }

    static LaneLayout of(List<Timeline> lanes, JobRanks ranks, List<Integer> devices) {
        List<Row> rows = new ArrayList<>();
        double[] y = {TimelinePane.AXIS};
        boolean[] placed = new boolean[lanes.size()];
        for (JobRanks.Rank r : ranks.ranks()) {
            List<Integer> group = new ArrayList<>();
            for (int i = 0; i < lanes.size(); i++) if (r.holds(lanes.get(i).thread())) group.add(i);
            add(rows, y, new Header(r, group.size(), header(r, group.size()), y[0]));
            for (int i : group) {
                placed[i] = true;
                int t = lanes.get(i).thread();
                add(rows, y, new Lane(i, t, "thread " + r.label(t), y[0]));
            }
        }
        for (int i = 0; i < lanes.size(); i++) {
            int t = lanes.get(i).thread();
            if (!placed[i]) add(rows, y, new Lane(i, t, "thread " + t, y[0]));
        }
        for (int k = 0; k < devices.size(); k++)
            add(rows, y, new Device(k, devices.get(k), "device " + devices.get(k), y[0]));
        return new LaneLayout(rows, y[0]);
    }

    private static void add(List<Row> rows, double[] y, Row row) {
        rows.add(row);
        y[0] += row.height();
    }

    /** "rank 0 (node-a, 2 threads)": what a group's header says (no host where the rank's profile names none). */
    static String header(JobRanks.Rank r, int threads) {
        String count = threads == 1 ? "1 thread" : threads + " threads";
        return String.format(Locale.ROOT, "rank %d (%s%s)", r.rank(), r.host().isEmpty() ? "" : r.host() + ", ", count);
    }

    /** The row at height {@code y}, or null above the first and below the last. */
    Row at(double y) {
        int lo = 0, hi = rows.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            Row r = rows.get(mid);
            if (y < r.y()) hi = mid - 1;
            else if (y >= r.y() + r.height()) lo = mid + 1;
            else return r;
        }
        return null;
    }

    /** The lanes, top to bottom. */
    List<Lane> lanes() {
        return rows.stream().filter(r -> r instanceof Lane).map(r -> (Lane) r).toList();
    }
}
