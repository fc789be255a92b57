package org.ompprof.ui.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.calltree.merge.JobRanks;
import org.ompprof.calltree.profile.Timeline;

/** The timeline's rows: a profile's lanes as they always were, a job profile's grouped by rank. */
class LaneLayoutTest {
    private static List<Timeline> lanes(int... threads) {
        List<Timeline> out = new ArrayList<>();
        for (int t : threads) out.add(new Timeline.Builder(t).build());
        return out;
    }

    @Test
    void withoutRanksEveryLaneIsWhereItWasNamedByItsThread() {
        List<Timeline> lanes = lanes(0, 1, 2, 5);
        LaneLayout l = LaneLayout.of(lanes, JobRanks.NONE, List.of(0, 3));
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < l.rows().size(); i++) {
            LaneLayout.Row r = l.rows().get(i);
            assertEquals(TimelinePane.AXIS + i * TimelinePane.LANE, r.y(), "row " + i + " where it always was");
            labels.add(r.label());
        }
        assertEquals(List.of("thread 0", "thread 1", "thread 2", "thread 5", "device 0", "device 3"), labels);
        assertEquals(
                List.of(0, 1, 2, 3),
                l.lanes().stream().map(LaneLayout.Lane::index).toList());
    }

    @Test
    void aJobsLanesComeInRankOrderUnderAHeaderPerRankThenTheDevices() {
        // merged as rank 2 (threads 0-1, no host), rank 0 (threads 2-4), and rank 5 (no threads left)
        JobRanks job = new JobRanks(List.of(
                new JobRanks.Rank(0, "node-a", 2, 5),
                new JobRanks.Rank(2, "", 0, 2),
                new JobRanks.Rank(5, "node-b", 5, Integer.MAX_VALUE)));
        LaneLayout l = LaneLayout.of(lanes(0, 1, 2, 3, 4), job, List.of(0));
        assertEquals(
                List.of(
                        "rank 0 (node-a, 3 threads)",
                        "thread 0.0",
                        "thread 0.1",
                        "thread 0.2",
                        "rank 2 (2 threads)",
                        "thread 2.0",
                        "thread 2.1",
                        "rank 5 (node-b, 0 threads)",
                        "device 0"),
                l.rows().stream().map(LaneLayout.Row::label).toList());
        assertEquals(
                List.of(2, 3, 4, 0, 1),
                l.lanes().stream().map(LaneLayout.Lane::index).toList());
        assertEquals(TimelinePane.AXIS + 3 * LaneLayout.HEADER + 6 * TimelinePane.LANE, l.bottom());
    }

    @Test
    void threadsNoRankHoldsFollowUngrouped() {
        JobRanks job = new JobRanks(List.of(new JobRanks.Rank(0, "", 2, 3), new JobRanks.Rank(1, "", 3, 4)));
        LaneLayout l = LaneLayout.of(lanes(0, 1, 2, 3), job, List.of());
        assertEquals(
                List.of("rank 0 (1 thread)", "thread 0.0", "rank 1 (1 thread)", "thread 1.0", "thread 0", "thread 1"),
                l.rows().stream().map(LaneLayout.Row::label).toList());
    }

    /** Every height inside a row finds that row, and only heights between the rows' top and bottom find one. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 17, 2026})
    void theRowAtAHeightIsTheOneDrawnThere(long seed) {
        Random random = new Random(seed);
        int threads = 1 + random.nextInt(40);
        List<JobRanks.Rank> ranks = new ArrayList<>();
        int first = 0;
        List<Integer> order = new ArrayList<>();
        for (int r = 0; r < 1 + random.nextInt(6); r++) order.add(r * (1 + random.nextInt(3)));
        java.util.Collections.shuffle(order, random);
        for (int i = 0; i < order.size(); i++) {
            int end = i == order.size() - 1 ? Integer.MAX_VALUE : first + random.nextInt(8);
            ranks.add(new JobRanks.Rank(order.get(i), random.nextBoolean() ? "h" : "", first, end));
            first = end;
        }
        ranks.sort(java.util.Comparator.comparingInt(JobRanks.Rank::rank));
        int[] numbers = new int[threads];
        for (int t = 0; t < threads; t++) numbers[t] = t;
        LaneLayout l = LaneLayout.of(
                lanes(numbers), random.nextBoolean() ? new JobRanks(ranks) : JobRanks.NONE, List.of(0, 1));
        assertEquals(threads, l.lanes().size(), "every lane once");
        for (LaneLayout.Row row : l.rows()) {
            for (int k = 0; k < 20; k++) assertSame(row, l.at(row.y() + random.nextDouble() * row.height()));
        }
        assertNull(l.at(TimelinePane.AXIS - 0.5));
        assertNull(l.at(l.bottom()));
        LaneLayout.Row last = l.rows().getLast();
        assertTrue(last.y() + last.height() == l.bottom());
    }
}
