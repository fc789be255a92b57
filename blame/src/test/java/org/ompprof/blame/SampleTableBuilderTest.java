package org.ompprof.blame;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ompprof.blame.SeededRuns.Row;

/**
 * A builder's starting room changes where it grows, never the table: seeded runs of samples in time order and
 * shuffled (the build sorts them), added one by one, through {@link SampleTable.Builder#addAll} and joined, into
 * builders with room for none, one, fewer than all and all of them, against the default builder.
 */
class SampleTableBuilderTest {
    private static final long MS = SeededRuns.MS;

    private static SampleTable.Builder filled(SampleTable.Builder b, List<Row> rows) {
        for (Row x : rows) b.add(x.thread(), x.time(), x.weight(), x.c(), x.waitId(), x.region(), x.node());
        return b;
    }

    private static String dump(SampleTable t) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < t.size(); i++)
            s.append(t.thread(i))
                    .append(' ')
                    .append(t.timeNs(i))
                    .append(' ')
                    .append(t.weightNs(i))
                    .append(' ')
                    .append(t.waitClass(i))
                    .append(' ')
                    .append(t.node(i))
                    .append('\n');
        return s.toString();
    }

    @ParameterizedTest
    @CsvSource({"1, 0", "2, 1", "3, 7", "4, 1024", "5, -1", "6, 100000"})
    void anyStartingRoomBuildsTheSameTable(long seed, int capacity) {
        Random r = new Random(seed);
        List<Row> rows = new ArrayList<>(SeededRuns.samples(r, 500 * MS, 2 * (int) MS));
        if (seed % 2 == 0) Collections.shuffle(rows, r);
        int room = capacity < 0 ? rows.size() : capacity;
        String expected = dump(filled(new SampleTable.Builder(), rows).build());

        assertEquals(expected, dump(filled(new SampleTable.Builder(room), rows).build()), "added one by one");
        SampleTable.Builder half = filled(new SampleTable.Builder(room), rows.subList(0, rows.size() / 2));
        half.addAll(filled(new SampleTable.Builder(room), rows.subList(rows.size() / 2, rows.size())));
        assertEquals(expected, dump(half.build()), "in two halves");
        assertEquals(rows.size(), half.size());
        SampleTable.Builder first = filled(new SampleTable.Builder(room), rows.subList(0, rows.size() / 3));
        SampleTable.Builder rest = filled(new SampleTable.Builder(room), rows.subList(rows.size() / 3, rows.size()));
        assertEquals(
                expected, dump(SampleTable.Builder.joined(List.of(first, rest)).build()), "joined");
    }

    /**
     * Samples of all threads in time order (as blame's windows get them) come out by thread, then time, whatever the
     * threads' numbers: a run from 1 (grouped by counting), numbers spread wider than the samples (sorted), the ends
     * of the int range; against the rows sorted by every column and added in that order.
     */
    @ParameterizedTest
    @CsvSource({"11, 1", "12, 1000003", "13, -2147483648", "14, 2147483000", "15, 7"})
    void timeOrderedSamplesComeOutByThreadWhateverTheirNumbers(long seed, int spread) {
        Random r = new Random(seed);
        List<Row> rows = new ArrayList<>();
        for (Row x : SeededRuns.samples(r, 200 * MS, 2 * (int) MS)) {
            int thread = spread == Integer.MIN_VALUE
                    ? (x.thread() % 2 == 0 ? Integer.MIN_VALUE + x.thread() : Integer.MAX_VALUE - x.thread())
                    : x.thread() * spread;
            rows.add(new Row(thread, x.time(), x.weight(), x.c(), x.waitId(), x.region(), x.node()));
        }
        rows.sort(Comparator.comparingLong(Row::time));
        List<Row> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparingInt(Row::thread)
                .thenComparingLong(Row::time)
                .thenComparingInt(Row::node)
                .thenComparing(Row::c)
                .thenComparingLong(Row::weight)
                .thenComparingLong(Row::waitId)
                .thenComparingLong(Row::region));
        assertEquals(
                dump(filled(new SampleTable.Builder(), sorted).build()),
                dump(filled(new SampleTable.Builder(), rows).build()),
                "seed " + seed + ", thread numbers times " + spread);
    }
}
