package org.ompprof.ui.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TaskGranularityTest {
    private static final long MS = 1_000_000;

    /** fib with a task per call: no work outside the runtime's code; the advice is a cut-off. */
    @Test
    void tinyTasksAreToldToGrow() {
        TaskGranularity g = new TaskGranularity(242_784, 7 * MS, 7 * MS, 747 * MS, 0);
        assertTrue(g.small());
        assertEquals(754 * MS, g.costNs());
        assertEquals(
                "99.0% of thread time is task waiting and task overhead: 242,784 tasks (task at fib.c:12 in fib(), "
                        + "running fib()) do under a microsecond of work each on average; make them larger (a cut-off,"
                        + " an if or final clause)",
                g.text("99.0%", "task at fib.c:12", "fib()", "fib()"));
    }

    /** Tasks of 90 ms with the producer waiting at the taskgroup's end: the waiting is for the longest tasks. */
    @Test
    void largeTasksWaitForTheLongest() {
        TaskGranularity g = new TaskGranularity(32, 2_889 * MS, 0, 0, 502 * MS);
        assertFalse(g.small());
        assertEquals(
                "12.1% of thread time is waiting at taskgroup ends for the longest tasks: 32 tasks (task at "
                        + "tg.c:63 in make_tasks(), running task_units()) take 90.3 ms each on average; create the "
                        + "largest first, or split them",
                g.text("12.1%", "task at tg.c:63", "make_tasks()", "task_units()"));
        assertTrue(new TaskGranularity(32, 2_889 * MS, 0, 400 * MS, 100 * MS)
                .text("1%", null, null, null)
                .contains("waiting in taskwait for the longest tasks"));
    }

    /** Large tasks whose time goes to the runtime's task code all the same are small against their overhead. */
    @Test
    void aLargeShareInTheRuntimeIsSmallTasks() {
        assertTrue(new TaskGranularity(1000, 100 * MS, 25 * MS, 0, 0).small());
        assertFalse(new TaskGranularity(1000, 100 * MS, 15 * MS, 0, 0).small());
        assertTrue(new TaskGranularity(1000, 19 * MS, 0, 0, 0).small(), "19 us a task");
        assertFalse(new TaskGranularity(1000, 21 * MS, 0, 0, 0).small(), "21 us a task");
    }

    /** Whatever the names, at most 240 characters, the advice kept (names dropped first). */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void neverLongerThanAFinding(long seed) {
        Random r = new Random(seed);
        for (int i = 0; i < 2000; i++) {
            TaskGranularity g = new TaskGranularity(
                    1 + r.nextInt(10_000_000),
                    r.nextLong(100_000 * MS),
                    r.nextLong(1_000 * MS),
                    r.nextLong(100_000 * MS),
                    r.nextLong(100_000 * MS));
            String text = g.text("12.3%", name(r, "task at ", ".c:123"), name(r, "", "()"), name(r, "", "()"));
            assertTrue(text.length() <= Finding.MAX_LENGTH, text);
            assertTrue(text.endsWith(g.small() ? "an if or final clause)" : "or split them"), text);
        }
    }

    private static String name(Random r, String prefix, String suffix) {
        StringBuilder b = new StringBuilder(prefix);
        for (int n = r.nextInt(60); n > 0; n--) b.append((char) ('a' + r.nextInt(26)));
        return b.append(suffix).toString();
    }
}
