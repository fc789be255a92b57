package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.ProfileReader;
import org.ompprof.sampler.record.MutexEvent;
import org.ompprof.sampler.record.SampleRecord;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.wire.Wire;

/**
 * A quicksort whose idle threads spin through the critical section that guards its stack of ranges
 * (quicksort_critical.c), recorded in wall and cpu mode with 2 threads and with 4 (twice this machine's cores: the
 * loaded variant). Everything done while holding the critical is in take_range, push_range, finish_range and all_done,
 * between the critical constructs' lines; partition and small_sort run outside it.
 *
 * <p>What it checks: the program sorts under the profiler, every nanosecond of the critical's waiting is charged once
 * (conservation), the findings name the program's own code, and (issue 16's goal) at least 90% of the waiting is
 * charged inside the hold: to the body's functions, or to a {@code <hold released at quicksort_critical.c:L>} frame
 * whose line L lies within a critical construct, or to the runtime's entry or end of the critical ({@code
 * __kmpc_critical}, {@code __kmpc_end_critical}: a holder descheduled right after its acquired event or while
 * releasing, still inside its hold by the events; on a loaded machine most of the waiting goes there). A hold lasts
 * microseconds (the body moves two numbers), so its holder is seldom sampled inside it; the agent sends the context of
 * each hold's release, and blame charges that. With 4 threads most waiting is the critical being handed on: libomp's
 * queuing lock passes the released critical to the next waiter in line, which, with more threads than cores, is often
 * not running; that waiting goes to the nearer in time of the holds before and after the hand-over (the agent writes
 * the holds of the threads that waited while a waiter was sampled or, in wall mode, marked at a tick, and of the
 * sampled waiters themselves: before they were, half the runs under under-load 2 left 20-100% of the waiting
 * unattributed). The report says that most of it passes while nobody holds the critical (92-100% seen, quiet and
 * loaded). In cpu mode waiting is seen only while a waiter spins, which on a loaded machine it hardly does: the
 * share is asserted where at least 10 ms were waited with 4 threads (30 ms with 2, where a sample is a bigger part of
 * it), which the 4-thread wall runs always do, and the finding's
 * sentence where the waiting is worth a finding (2% of thread time: 11 ms of 867 ms in one cpu run was not). With 2
 * threads the program's own threads hardly make each other wait (the one spinner has the critical to itself): on a
 * loaded machine, some of the waiting is a waiter that other processes kept off the cores after the critical was
 * released, behind no hold at all, and it stays unattributed (5.6 and 17.0 ms of it in two of six runs under
 * under-load 2, with no hold written). There, what is charged must still be charged inside a hold.
 */
class QuicksortCriticalEndToEndTest {
    private static final Set<String> BODY = Set.of("take_range", "push_range", "finish_range", "all_done");
    /** The runtime's entry and exit of the critical: a holder is in them from its acquired event to its released. */
    private static final Set<String> CONSTRUCT =
            Set.of("__kmpc_critical", "__kmpc_critical_with_hint", "__kmpc_end_critical");

    @TempDir
    Path work;

    /** The thread time a report's run line gives ("850 samples, 866.9 ms of thread time"), in ns. */
    private static double threadTimeNs(String report) {
        Matcher m = Pattern.compile("samples, ([0-9.]+) (ms|s) of thread time").matcher(report);
        assertTrue(m.find(), report);
        return Double.parseDouble(m.group(1)) * (m.group(2).equals("s") ? 1e9 : 1e6);
    }

    @ParameterizedTest
    @CsvSource({"wall, 2", "wall, 4", "cpu, 2", "cpu, 4"})
    void criticalWaitingAndItsHolders(String mode, int threads) throws Exception {
        Path profile = work.resolve(mode + threads + ".ompprof");
        Ompprof.Result r = Ompprof.run(
                work,
                Map.of("OMP_NUM_THREADS", Integer.toString(threads)),
                "record",
                "--keep-raw",
                "--mode",
                mode,
                "-o",
                profile.toString(),
                "--",
                CPrograms.clang("quicksort_critical").toString(),
                "8000000");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("8000000 elements, " + threads + " threads, sorted"), r.out());

        Profile p;
        try (Recording rec = Recording.open(profile)) {
            p = ProfileReader.read(rec);
        }
        long waited = p.blame("waited_ns.mutex_critical"),
                charged = p.blame("charged_ns.mutex_critical"),
                unattributed = p.blame("unattributed_ns.mutex_critical"),
                outside = p.blame("outside_hold_ns.mutex_critical"),
                handedOver = p.blame("handed_over_ns.mutex_critical");
        Set<String> releases = criticalReleaseFrames();
        double body = BlameTotals.totalWhereMs(
                work,
                profile,
                "mutex_blame.critical",
                0,
                path -> path.stream().anyMatch(BODY::contains)
                        || releases.contains(path.getLast())
                        || CONSTRUCT.contains(path.getLast()));
        double all = BlameTotals.totalMs(work, profile, "mutex_blame.critical", null);
        System.out.printf(
                Locale.ROOT,
                "quicksort_critical %s %d threads: critical waiting %.1f ms; on the hold's body %.1f ms (%.1f%%); "
                        + "charged outside the hold (no holder sample in it, no release site) %.1f ms (%.1f%%); "
                        + "unattributed %.1f ms (%.1f%%); while nobody held it %.1f%%; waiting samples inside a "
                        + "recorded hold of another thread %.1f%%%n",
                mode,
                threads,
                waited / 1e6,
                body,
                pct(body * 1e6, waited),
                outside / 1e6,
                pct(outside, waited),
                unattributed / 1e6,
                pct(unattributed, waited),
                pct(handedOver, waited),
                100 * inRecordedHolds(Recorded.read(profile)));
        assertEquals(waited, charged, "conservation");
        if (threads == 4 && mode.equals("wall"))
            assertTrue(waited > 10_000_000, "4 threads on 2 cores wait for the critical");
        if (waited > 10_000_000 && threads == 4) {
            assertTrue(body * 1e6 >= 0.9 * waited, "at least 90% of the waiting inside the hold: " + body + " ms");
            assertTrue(outside + unattributed <= 0.01 * waited, "all of it at some hold of the critical");
            // the critical spends most of its waiting on its way to a thread that waits for a core: the report says so
            assertTrue(handedOver >= 0.5 * waited, "mostly while nobody held it: " + handedOver + " ns");
            Ompprof.Result report = Ompprof.read("report", profile.toString());
            assertTrue(report.out().contains("while nobody held it (between holders)"), report.out());
            // the finding, where the waiting is one: 2% of thread time (cpu mode's waiting can be less)
            if (waited >= 0.02 * threadTimeNs(report.out()))
                assertTrue(
                        report.out().contains("while nobody held it, the next holder not yet running"), report.out());
        } else if (waited > 30_000_000) {
            // with 2 threads the waiting is a few samples, and under load one sample weighs milliseconds (the time
            // since the thread's previous one): 10.6 ms waited once, 3.9 ms of it charged outside the body's frames.
            // The share is asserted where one sample cannot swing it by a tenth
            long toCode = waited - unattributed;
            assertTrue(body * 1e6 >= 0.9 * toCode, "at least 90% of what is charged inside the hold: " + body + " ms");
            assertTrue(outside <= 0.01 * waited, "none of it outside a hold");
        }
        assertEquals(waited / 1e6, all, 0.01 + waited / 1e9, "the export's mutex_blame.critical is the waiting");
        FindingsNames.assertProgramsOwn(profile);
    }

    /**
     * The frames that stand for a hold of the program's critical released at one of the lines of a critical
     * construct: a {@code #pragma omp critical} and its statement or block.
     */
    private static Set<String> criticalReleaseFrames() throws IOException {
        List<String> src = Files.readAllLines(CPrograms.source("quicksort_critical"));
        Set<String> out = new HashSet<>();
        for (int i = 0; i < src.size(); i++) {
            if (!src.get(i).trim().startsWith("#pragma omp critical")) continue;
            int end = i + 1;
            if (src.get(end).trim().equals("{")) {
                while (!src.get(end).trim().equals("}")) end++;
            }
            for (int line = i + 1; line <= end + 1; line++)
                out.add(Frame.holdReleasedAt("quicksort_critical.c:" + line).name());
        }
        return out;
    }

    /**
     * The share of the waiting samples' weight that falls inside a hold of the mutex by another thread, as the
     * agent recorded the holds (ACQUIRED to RELEASED): the holds directed blame can charge inside.
     */
    private static double inRecordedHolds(Recorded rec) {
        List<long[]> holds = new ArrayList<>(); // start, end, thread
        Map<Integer, Long> open = new HashMap<>();
        for (MutexEvent m : rec.all(MutexEvent.class)) {
            if (m.event() == Wire.MUTEX_ACQUIRED) open.put(m.threadSeq(), m.timeNs());
            if (m.event() == Wire.MUTEX_RELEASED && open.containsKey(m.threadSeq()))
                holds.add(new long[] {open.remove(m.threadSeq()), m.timeNs(), m.threadSeq()});
        }
        long all = 0, inside = 0;
        for (SampleRecord x : rec.samples()) {
            if ((x.state() & ~0xf) != 0x40) continue; // the mutex waits
            all += x.weightNs();
            if (holds.stream().anyMatch(h -> h[0] <= x.timeNs() && x.timeNs() < h[1] && h[2] != x.threadSeq()))
                inside += x.weightNs();
        }
        return all == 0 ? 0 : (double) inside / all;
    }

    private static double pct(double part, long whole) {
        return whole == 0 ? 0 : 100 * part / whole;
    }
}
