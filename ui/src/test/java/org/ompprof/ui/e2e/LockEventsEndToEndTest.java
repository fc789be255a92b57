package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.ProfileReader;
import org.ompprof.sampler.record.MutexEvent;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.Stats;
import org.ompprof.sampler.wire.Wire;

/**
 * Lock events at real rates: uncontended acquisitions write nothing (and are counted), so a
 * lock-heavy program loses no record; contended ones keep directed blame exact.
 */
class LockEventsEndToEndTest {
    private static final List<String> MUTEX_KINDS =
            List.of("mutex_lock", "mutex_critical", "mutex_atomic", "mutex_ordered");

    @TempDir
    Path work;

    private Path record(Map<String, String> env, Path program, String... args) throws Exception {
        Path profile = work.resolve(program.getFileName() + ".ompprof");
        List<String> cmd = new java.util.ArrayList<>(
                List.of("record", "--keep-raw", "-o", profile.toString(), "--", program.toString()));
        cmd.addAll(List.of(args));
        Ompprof.Result r = Ompprof.run(work, env, cmd.toArray(String[]::new));
        assertEquals(0, r.status(), r.err());
        return profile;
    }

    /**
     * 5 million uncontended pairs on one thread (15 million callbacks in well under a second): no record lost, all
     * counted.
     */
    @Test
    void uncontendedLocksLoseNothing() throws Exception {
        Path profile = record(Map.of(), CPrograms.clang("lock_loop"), "5000000");
        Recorded rec = Recorded.read(profile);
        Stats st = rec.recording().stats();
        assertEquals(0, st.totalDropped(), "dropped records");
        long written = rec.all(MutexEvent.class).stream()
                .filter(m -> m.event() == Wire.MUTEX_ACQUIRE
                        || m.event() == Wire.MUTEX_ACQUIRED
                        || m.event() == Wire.MUTEX_RELEASED)
                .count();
        // each pair is three callbacks; a sample that lands inside an acquisition writes that wait (two records)
        assertEquals(
                3 * 5_000_000L,
                st.mutexSkipped() + written,
                "every callback is written or counted: " + written + " written");
        assertTrue(
                written <= 4 * rec.samples().size() + 4,
                written + " records for " + rec.samples().size() + " samples");
        Ompprof.Result info = Ompprof.read("info", profile.toString());
        assertEquals(0, info.status(), info.err());
        assertTrue(
                info.out().contains("lock events:")
                        && info.out()
                                .contains(String.format(Locale.ROOT, "%,d uncontended skipped", st.mutexSkipped())),
                info.out());
        assertTrue(info.out().contains("ring full:          0 samples, 0 callback records"), info.out());
    }

    /**
     * A critical section everyone waits for, with 2 threads and with 4 threads on a 2-core machine. Every hold in
     * critical_body begins before anyone waits for it (the holder enters, then the others arrive), so only the holders'
     * check at release records them: all holds that anyone waited through must be there (all but the last of each
     * thread's rounds may go unwaited), each of them whole (the last, which nobody waits through, too), and every
     * sampled wait. Blame: at least 90% of the waiting on the holder's code (crit_body), charged at the holder's
     * samples inside its hold (at most 2% through the release-site fallback of a holder never sampled in its hold), at
     * most 1% with no hold to charge (the agent may miss a hold in a race it documents), every nanosecond charged once,
     * and at most 20% of it while nobody held the critical.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void criticalWaitingLandsOnTheHolder(int threads) throws Exception {
        int rounds = 10;
        Path profile = record(
                Map.of("OMP_NUM_THREADS", Integer.toString(threads)),
                CPrograms.clang("critical_body"),
                Integer.toString(rounds),
                "0.02");
        Recorded rec = Recorded.read(profile);
        assertEquals(0, rec.recording().stats().totalDropped(), "dropped records");
        List<MutexEvent> events = rec.all(MutexEvent.class);
        long holds =
                events.stream().filter(m -> m.event() == Wire.MUTEX_RELEASED).count();
        assertTrue(
                holds >= (long) threads * rounds - threads && holds <= (long) threads * rounds,
                holds + " holds recorded of " + threads * rounds);
        // a hold whose acquisition was written is written whole, also when nobody waits during it: a
        // waiter is often handed the mutex off a CPU, and blame charges the waiting around the hand-over to it
        Map<Integer, Long> acquiredLessReleased = new java.util.HashMap<>();
        for (MutexEvent m : events) {
            if (m.event() == Wire.MUTEX_ACQUIRED) acquiredLessReleased.merge(m.threadSeq(), 1L, Long::sum);
            if (m.event() == Wire.MUTEX_RELEASED) acquiredLessReleased.merge(m.threadSeq(), -1L, Long::sum);
        }
        assertTrue(
                acquiredLessReleased.values().stream().allMatch(d -> d == 0),
                "acquired less released per thread: " + acquiredLessReleased);
        // every sample taken while waiting lies in a recorded wait of its thread
        Map<Integer, List<long[]>> waits = new java.util.HashMap<>();
        Map<Integer, Long> open = new java.util.HashMap<>();
        for (MutexEvent m : events) {
            if (m.event() == Wire.MUTEX_ACQUIRE) open.put(m.threadSeq(), m.timeNs());
            if (m.event() == Wire.MUTEX_ACQUIRED && open.containsKey(m.threadSeq())) {
                waits.computeIfAbsent(m.threadSeq(), t -> new java.util.ArrayList<>())
                        .add(new long[] {open.remove(m.threadSeq()), m.timeNs()});
            }
        }
        long waitingSamples =
                rec.samples().stream().filter(x -> (x.state() & ~0xf) == 0x40).count();
        long inWaits = rec.samples().stream()
                .filter(x -> (x.state() & ~0xf) == 0x40)
                .filter(x -> waits.getOrDefault(x.threadSeq(), List.of()).stream()
                        .anyMatch(w -> w[0] <= x.timeNs() && x.timeNs() < w[1]))
                .count();
        assertTrue(
                waitingSamples > 0 && inWaits == waitingSamples,
                inWaits + " of " + waitingSamples + " waiting samples in recorded waits");

        Profile p;
        try (Recording r = Recording.open(profile)) {
            p = ProfileReader.read(r);
        }
        long waited = 0, charged = 0, unattributed = 0, outside = 0, handedOver = 0;
        for (String k : MUTEX_KINDS) {
            waited += p.blame("waited_ns." + k);
            charged += p.blame("charged_ns." + k);
            unattributed += p.blame("unattributed_ns." + k);
            outside += p.blame("outside_hold_ns." + k);
            handedOver += p.blame("handed_over_ns." + k);
        }
        double onBody = BlameTotals.totalMs(work, profile, "mutex_blame", "crit_body") * 1e6;
        String seen = String.format(
                Locale.ROOT,
                "%d threads: waited %.1f ms, on crit_body %.1f ms, charged outside the hold %.1f ms, "
                        + "unattributed %.1f ms, while nobody held it %.1f ms",
                threads,
                waited / 1e6,
                onBody / 1e6,
                outside / 1e6,
                unattributed / 1e6,
                handedOver / 1e6);
        System.out.println("critical_body " + seen);
        assertTrue(waited >= 0.5 * (threads - 1) * rounds * 20e6, seen);
        assertEquals(waited, charged, "conservation: " + seen);
        assertTrue(unattributed <= 0.01 * waited, seen);
        assertTrue(outside <= 0.02 * waited, seen);
        assertTrue(onBody >= 0.9 * waited, seen);
        // holds of 20 ms: the waiters' samples fall inside them (quiet 1.6%, under under-load 2 6.7% outside)
        assertTrue(handedOver <= 0.2 * waited, seen);
    }

    /**
     * A gcc-built program taking a lock per cache access (on libomp through its GOMP entry points): nothing dropped.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void gccCacheLockingLosesNothing(int threads) throws Exception {
        Path profile =
                record(Map.of("OMP_NUM_THREADS", Integer.toString(threads)), CPrograms.gcc("cache_locks"), "4000000");
        Recorded rec = Recorded.read(profile);
        Stats st = rec.recording().stats();
        assertEquals(0, st.totalDropped(), "dropped records");
        assertTrue(st.mutexSkipped() >= 0.99 * 3 * 4_000_000L, "uncontended lock events counted: " + st.mutexSkipped());
        assertTrue(BlameTotals.totalMs(work, profile, "time", "cache_get") > 0, "the locking code is in the profile");
    }
}
