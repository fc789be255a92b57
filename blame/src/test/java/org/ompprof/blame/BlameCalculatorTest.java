package org.ompprof.blame;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.eclipse.collections.impl.factory.primitive.IntSets;
import org.junit.jupiter.api.Test;
import org.ompprof.sampler.omp.WaitClass;

/** Small timelines worked out on paper. Times in ms, weights 1 ms (1,000,000 ns). */
class BlameCalculatorTest {
    private static final long MS = 1_000_000;
    private static final int NODE_LIGHT = 10, NODE_HEAVY = 11, NODE_OTHER = 12, NODE_HOLDER = 20, NODE_MAIN = 30;

    private static void spin(
            SampleTable.Builder b, int thread, int fromMs, int toMs, WaitClass c, long region, int node) {
        for (int t = fromMs; t < toMs; t++) b.add(thread, t * MS, MS, c, 0, region, node);
    }

    /**
     * Imbalance: in region 7, thread 1 works 0..10 ms, thread 2 works 0..4 ms and waits at the
     * barrier 4..10: the 6 ms of barrier waiting all go to thread 1's context.
     */
    @Test
    void barrierWaitIsBlamedOnTheThreadStillWorking() {
        SampleTable.Builder b = new SampleTable.Builder();
        spin(b, 1, 0, 10, WaitClass.WORK, 7, NODE_HEAVY);
        spin(b, 2, 0, 4, WaitClass.WORK, 7, NODE_LIGHT);
        spin(b, 2, 4, 10, WaitClass.BARRIER, 7, NODE_OTHER);
        Charges c = BlameCalculator.compute(b.build(), new MutexHolds.Builder().build(), IntSets.immutable.of(1));
        assertEquals(6 * MS, c.waitedNs(BlameKind.BARRIER));
        assertEquals(6 * MS, charged(c, NODE_HEAVY, 1, BlameKind.BARRIER));
        assertEquals(0, c.unattributedNs(BlameKind.BARRIER));
    }

    /**
     * A descheduled worker: thread 1 works 0..3 ms, is off the CPU until 12 ms and is then
     * sampled once with the overrun's weight (9 ms) in the same work. Thread 2 waits at the
     * barrier at 6..8 ms: no sample of thread 1 lies near, but its 12 ms sample stands for
     * 3..12 ms, so the waiting goes to it, none unattributed.
     */
    @Test
    void aDescheduledWorkersOverrunSampleCoversTheWait() {
        SampleTable.Builder b = new SampleTable.Builder();
        spin(b, 1, 0, 3, WaitClass.WORK, 7, NODE_OTHER);
        b.add(1, 12 * MS, 9 * MS, WaitClass.WORK, 0, 7, NODE_HEAVY);
        spin(b, 2, 0, 6, WaitClass.WORK, 7, NODE_LIGHT);
        spin(b, 2, 6, 9, WaitClass.BARRIER, 7, NODE_MAIN);
        Charges c = BlameCalculator.compute(b.build(), new MutexHolds.Builder().build(), IntSets.immutable.of(1));
        assertEquals(3 * MS, charged(c, NODE_HEAVY, 1, BlameKind.BARRIER));
        assertEquals(0, c.unattributedNs(BlameKind.BARRIER));
    }

    /**
     * Regions shorter than the sampling period: thread 2's barrier samples are the only samples
     * of regions 8 and 9; thread 1's samples, all taken in other instances, cover the moments:
     * its work is what thread 2 waited for.
     */
    @Test
    void aWaiterAloneInItsRegionIsBlamedOnWhoWorkedMeanwhile() {
        SampleTable.Builder b = new SampleTable.Builder();
        for (int t = 0; t < 4; t++) b.add(1, t * MS, MS, WaitClass.WORK, 0, 10 + t, NODE_HEAVY);
        b.add(2, MS, MS, WaitClass.BARRIER, 0, 8, NODE_OTHER);
        b.add(2, 2 * MS, MS, WaitClass.BARRIER, 0, 9, NODE_OTHER);
        Charges c = BlameCalculator.compute(b.build(), new MutexHolds.Builder().build(), IntSets.immutable.of(1));
        assertEquals(2 * MS, charged(c, NODE_HEAVY, 1, BlameKind.BARRIER));
        assertEquals(0, c.unattributedNs(BlameKind.BARRIER));
    }

    /** Three threads: one waits while two work in different contexts: half each, to the nanosecond. */
    @Test
    void sharesAreEqualPerWorkingThreadAndExact() {
        SampleTable.Builder b = new SampleTable.Builder();
        spin(b, 1, 0, 9, WaitClass.WORK, 7, NODE_HEAVY);
        spin(b, 2, 0, 9, WaitClass.WORK, 7, NODE_LIGHT);
        b.add(3, 4 * MS, 1_000_001, WaitClass.BARRIER, 0, 7, NODE_OTHER); // an odd weight: the remainder goes somewhere
        Charges c = BlameCalculator.compute(b.build(), new MutexHolds.Builder().build(), IntSets.immutable.of(1));
        assertEquals(
                500_001,
                charged(c, NODE_HEAVY, 1, BlameKind.BARRIER) + charged(c, NODE_LIGHT, 2, BlameKind.BARRIER) - 500_000);
        assertEquals(1_000_001, c.chargedNs(BlameKind.BARRIER));
    }

    /**
     * Everyone waits at the same barrier: nobody to blame; the barrier's own latency, charged to the waiters' own
     * contexts, none lost.
     */
    @Test
    void barrierWaitingWithNobodyWorkingIsTheBarriersLatency() {
        SampleTable.Builder b = new SampleTable.Builder();
        spin(b, 1, 0, 5, WaitClass.BARRIER, 7, NODE_OTHER);
        spin(b, 2, 0, 5, WaitClass.BARRIER, 7, NODE_OTHER);
        Charges c = BlameCalculator.compute(b.build(), new MutexHolds.Builder().build(), IntSets.immutable.of(1));
        assertEquals(0, c.unattributedNs(BlameKind.BARRIER));
        assertEquals(10 * MS, c.regionLatencyNs(BlameKind.BARRIER));
        long onBarrier = 0;
        for (int i = 0; i < c.size(); i++) {
            assertTrue(
                    c.isRegionLatency(i) && c.node(i) == NODE_OTHER,
                    "every charge is latency at the waiter's own context");
            onBarrier += c.valueNs(i);
        }
        assertEquals(10 * MS, onBarrier);
    }

    /** An idle thread while nobody works: nobody to blame, unattributed, none lost. */
    @Test
    void idlenessWithNobodyWorkingIsUnattributed() {
        SampleTable.Builder b = new SampleTable.Builder();
        spin(b, 1, 0, 5, WaitClass.IDLE, 0, NODE_OTHER);
        spin(b, 2, 0, 5, WaitClass.IDLE, 0, NODE_OTHER);
        Charges c = BlameCalculator.compute(b.build(), new MutexHolds.Builder().build(), IntSets.immutable.of(1));
        assertEquals(10 * MS, c.unattributedNs(BlameKind.IDLE));
        assertEquals(
                10 * MS,
                charged(c, Charges.UNATTRIBUTED, 1, BlameKind.IDLE)
                        + charged(c, Charges.UNATTRIBUTED, 2, BlameKind.IDLE));
    }

    /** An idle worker is blamed on what the initial thread does meanwhile (serial code between regions). */
    @Test
    void idlenessIsBlamedOnTheInitialThread() {
        SampleTable.Builder b = new SampleTable.Builder();
        spin(b, 1, 0, 5, WaitClass.WORK, 0, NODE_MAIN);
        spin(b, 2, 0, 5, WaitClass.IDLE, 0, NODE_OTHER);
        Charges c = BlameCalculator.compute(b.build(), new MutexHolds.Builder().build(), IntSets.immutable.of(1));
        assertEquals(5 * MS, charged(c, NODE_MAIN, 1, BlameKind.IDLE));
    }

    /**
     * A critical (wait id 99) held by thread 1 from 2 to 8 ms while it runs the body; thread 2
     * waits 3..8 ms: 5 ms of critical waiting on the body's context. Thread 3 waits for lock 5
     * whose holder was never seen acquiring it: unattributed.
     */
    @Test
    void mutexWaitIsBlamedOnTheHolderByWaitId() {
        SampleTable.Builder b = new SampleTable.Builder();
        spin(b, 1, 0, 2, WaitClass.WORK, 7, NODE_OTHER);
        spin(b, 1, 2, 8, WaitClass.WORK, 7, NODE_HOLDER);
        for (int t = 3; t < 8; t++) b.add(2, t * MS, MS, WaitClass.MUTEX, 99, 7, NODE_OTHER);
        b.add(3, 4 * MS, MS, WaitClass.MUTEX, 5, 7, NODE_OTHER);
        MutexHolds holds = new MutexHolds.Builder()
                .acquire(1, 99, MS, 5)
                .acquired(1, 99, 2 * MS)
                .released(1, 99, 8 * MS)
                .acquire(3, 5, 4 * MS, 1)
                .build();
        Charges c = BlameCalculator.compute(b.build(), holds, IntSets.immutable.of(1));
        assertEquals(5 * MS, charged(c, NODE_HOLDER, 1, BlameKind.MUTEX_CRITICAL));
        assertEquals(MS, c.unattributedNs(BlameKind.MUTEX_LOCK));
        assertEquals(0, c.outsideHoldNs(BlameKind.MUTEX_CRITICAL));
        assertEquals(0, c.handedOverNs(BlameKind.MUTEX_CRITICAL), "every sample inside the hold");
        assertEquals(0, c.handedOverNs(BlameKind.MUTEX_LOCK), "no hold at all: unattributed, not handed over");
    }

    /**
     * libomp's state names a lock by its internal object (wait id 0xBEEF in the samples) while the
     * events name the user's lock (7): the waiter's own acquire/acquired pair says which it was.
     */
    @Test
    void lockWaitIsMatchedByTheWaitersOwnEvents() {
        SampleTable.Builder b = new SampleTable.Builder();
        spin(b, 1, 0, 6, WaitClass.WORK, 7, NODE_HOLDER);
        for (int t = 1; t < 5; t++) b.add(2, t * MS, MS, WaitClass.MUTEX, 0xBEEF, 7, NODE_OTHER);
        MutexHolds holds = new MutexHolds.Builder()
                .acquire(1, 7, 0, 1)
                .acquired(1, 7, 0)
                .acquire(2, 7, 500_000, 1)
                .released(1, 7, 5_500_000)
                .acquired(2, 7, 5_500_000)
                .released(2, 7, 5_600_000)
                .build();
        Charges c = BlameCalculator.compute(b.build(), holds, IntSets.immutable.of(1));
        assertEquals(4 * MS, charged(c, NODE_HOLDER, 1, BlameKind.MUTEX_LOCK));
    }

    /** A hold too short to be sampled: the waiting goes to the holder's context nearest its release. */
    @Test
    void shortHoldIsBlamedNearItsRelease() {
        SampleTable.Builder b = new SampleTable.Builder();
        b.add(1, 0, MS, WaitClass.WORK, 0, 7, NODE_OTHER);
        b.add(1, 10 * MS, MS, WaitClass.WORK, 0, 7, NODE_HOLDER);
        b.add(2, 3 * MS, MS, WaitClass.MUTEX, 42, 7, NODE_OTHER);
        MutexHolds holds = new MutexHolds.Builder()
                .acquire(1, 42, 2_000_000, 1)
                .acquired(1, 42, 2_500_000)
                .released(1, 42, 9_500_000)
                .build();
        Charges c = BlameCalculator.compute(b.build(), holds, IntSets.immutable.of(1));
        assertEquals(MS, charged(c, NODE_HOLDER, 1, BlameKind.MUTEX_LOCK));
        assertEquals(MS, c.outsideHoldNs(BlameKind.MUTEX_LOCK));
    }

    /**
     * A descheduled holder: thread 1 runs other code until 4 ms, holds mutex 42 from 4 to 20 ms
     * but is off the CPU until 16 ms (no samples), then runs the body. Thread 2 waits 5..9 ms:
     * the holder's nearest samples in time (3 ms, before its hold) never held the mutex, so the
     * waiting goes to its first sample inside the hold, the body.
     */
    @Test
    void waitingGoesToWhatTheHolderDoesInsideItsHold() {
        SampleTable.Builder b = new SampleTable.Builder();
        spin(b, 1, 0, 4, WaitClass.WORK, 7, NODE_OTHER);
        spin(b, 1, 16, 20, WaitClass.WORK, 7, NODE_HOLDER);
        spin(b, 1, 20, 24, WaitClass.WORK, 7, NODE_OTHER);
        for (int t = 5; t < 9; t++) b.add(2, t * MS, MS, WaitClass.MUTEX, 42, 7, NODE_MAIN);
        MutexHolds holds = new MutexHolds.Builder()
                .acquire(1, 42, 4 * MS, 1)
                .acquired(1, 42, 4 * MS)
                .released(1, 42, 20 * MS)
                .build();
        Charges c = BlameCalculator.compute(b.build(), holds, IntSets.immutable.of(1));
        assertEquals(4 * MS, charged(c, NODE_HOLDER, 1, BlameKind.MUTEX_LOCK));
        assertEquals(0, charged(c, NODE_OTHER, 1, BlameKind.MUTEX_LOCK));
        assertEquals(0, c.outsideHoldNs(BlameKind.MUTEX_LOCK));
    }

    /**
     * A hand-over: thread 1 held mutex 42 first (0..5 ms), asks again at once, and the runtime
     * hands it to thread 2, which was descheduled and takes it at 7 ms, holding it to 12 ms.
     * Thread 1's waiting at 5..7 ms has no earlier hold by another thread: it goes to the hold it
     * waits for next, thread 2's, inside it.
     */
    @Test
    void waitingInAHandOverGoesToTheNextHolder() {
        SampleTable.Builder b = new SampleTable.Builder();
        spin(b, 1, 0, 5, WaitClass.WORK, 7, NODE_OTHER);
        for (int t = 5; t < 12; t++) b.add(1, t * MS, MS, WaitClass.MUTEX, 42, 7, NODE_MAIN);
        spin(b, 2, 7, 12, WaitClass.WORK, 7, NODE_HOLDER);
        MutexHolds holds = new MutexHolds.Builder()
                .acquire(1, 42, 0, 1)
                .acquired(1, 42, 0)
                .released(1, 42, 5 * MS)
                .acquire(2, 42, 3 * MS, 1)
                .acquire(1, 42, 5 * MS, 1)
                .acquired(2, 42, 7 * MS)
                .released(2, 42, 12 * MS)
                .acquired(1, 42, 12 * MS)
                .released(1, 42, 13 * MS)
                .build();
        Charges c = BlameCalculator.compute(b.build(), holds, IntSets.immutable.of(1));
        assertEquals(7 * MS, c.waitedNs(BlameKind.MUTEX_LOCK));
        assertEquals(7 * MS, charged(c, NODE_HOLDER, 2, BlameKind.MUTEX_LOCK));
        assertEquals(0, c.unattributedNs(BlameKind.MUTEX_LOCK));
        assertEquals(0, c.outsideHoldNs(BlameKind.MUTEX_LOCK));
    }

    /**
     * The same short hold as {@link #shortHoldIsBlamedNearItsRelease}, with its release site known: the waiting goes
     * to the context that released it, inside the hold, and not to the holder's samples around it.
     */
    @Test
    void shortHoldIsBlamedOnItsReleaseSite() {
        SampleTable.Builder b = new SampleTable.Builder();
        b.add(1, 0, MS, WaitClass.WORK, 0, 7, NODE_OTHER);
        b.add(1, 10 * MS, MS, WaitClass.WORK, 0, 7, NODE_HOLDER);
        b.add(2, 3 * MS, MS, WaitClass.MUTEX, 42, 7, NODE_OTHER);
        MutexHolds holds = new MutexHolds.Builder()
                .acquired(1, 42, 2_500_000)
                .released(1, 42, 9_500_000)
                .build();
        int site = 99;
        ReleaseSites sites = (thread, releaseNs) -> thread == 1 && releaseNs == 9_500_000 ? site : -1;
        Charges c = BlameCalculator.compute(b.build(), holds, sites, IntSets.immutable.of(1));
        assertEquals(MS, charged(c, site, 1, BlameKind.MUTEX_LOCK));
        assertEquals(0, charged(c, NODE_HOLDER, 1, BlameKind.MUTEX_LOCK));
        assertEquals(0, c.outsideHoldNs(BlameKind.MUTEX_LOCK));
    }

    /**
     * A queuing lock handed on: thread 1 holds mutex 42 at 0..1 ms; the runtime hands it to thread 3, descheduled,
     * which takes it at 9 ms and holds it to 9.1 ms; thread 2 waits throughout. Its samples in the hand-over go to
     * the nearer in time of the two holds (those at 1..5 ms to thread 1's, 5 ms being as near to both; those at 6..8
     * ms to thread 3's), to the holds' release sites since nobody was sampled inside them; all of it is counted as
     * waiting while nobody held the lock.
     */
    @Test
    void waitingInAHandOverGoesToTheNearerHold() {
        SampleTable.Builder b = handOverSamples();
        MutexHolds holds = handOverHolds();
        int first = 91, second = 93;
        ReleaseSites sites = (thread, releaseNs) -> thread == 1 ? first : thread == 3 ? second : -1;
        Charges c = BlameCalculator.compute(b.build(), holds, sites, IntSets.immutable.of(1));
        assertEquals(8 * MS, c.waitedNs(BlameKind.MUTEX_LOCK));
        assertEquals(5 * MS, charged(c, first, 1, BlameKind.MUTEX_LOCK), "samples at 1..5 ms");
        assertEquals(3 * MS, charged(c, second, 3, BlameKind.MUTEX_LOCK), "samples at 6..8 ms");
        assertEquals(0, c.outsideHoldNs(BlameKind.MUTEX_LOCK));
        assertEquals(8 * MS, c.handedOverNs(BlameKind.MUTEX_LOCK), "all of it while nobody held the lock");
    }

    /**
     * The hand-over of {@link #waitingInAHandOverGoesToTheNearerHold}, its release sites given as stand-ins (as a
     * build hands them out while another thread grows the tree) that turn out to be one node: the charges are that
     * node's, and so is all of the mutex's waiting, 8 ms, where the two stand-ins had 5 and 3 ms apiece.
     */
    @Test
    void standInSitesAreChargedToTheNodesTheyResolveTo() {
        SampleTable.Builder b = handOverSamples();
        MutexHolds holds = handOverHolds();
        int standIn = 1 << 30, node = 91;
        ReleaseSites sites = new ReleaseSites() {
            @Override
            public int node(int thread, long releaseNs) {
                return standIn + thread;
            }

            @Override
            public int resolve(int n) {
                return n >= standIn ? node : n;
            }
        };
        Charges c = BlameCalculator.compute(b.build(), holds, sites, IntSets.immutable.of(1));
        assertEquals(5 * MS, charged(c, node, 1, BlameKind.MUTEX_LOCK), "samples at 1..5 ms");
        assertEquals(3 * MS, charged(c, node, 3, BlameKind.MUTEX_LOCK), "samples at 6..8 ms");
        for (int i = 0; i < c.size(); i++) assertTrue(c.node(i) < standIn, "no stand-in left: " + c.node(i));
        assertEquals(List.of(new Charges.Mutex(42, BlameKind.MUTEX_LOCK, 8 * MS, node, 8 * MS)), c.mutexes());
    }

    /**
     * quicksort_critical on 4 threads, 2 cores: thread 2 takes the critical again and again (20 short holds of its own,
     * written because others waited behind them), and waits 1 ms at 30 ms in a hand-over, its previous holder's hold
     * unwritten; the last hold by another thread (thread 3's, ended at 20 ms) lies 11 of thread 2's own holds back.
     * The waiting still goes to it, at its release site: before, only 8 holds on either side were looked at, and it
     * stayed unattributed.
     */
    @Test
    void aWaitersOwnHoldsInARowDoNotHideTheOthers() {
        SampleTable.Builder b = new SampleTable.Builder();
        b.add(2, 30 * MS, MS, WaitClass.MUTEX, 42, 7, NODE_MAIN);
        MutexHolds.Builder hb =
                new MutexHolds.Builder().acquired(3, 42, 19 * MS).released(3, 42, 20 * MS);
        for (int k = 0; k < 20; k++) {
            long at = 20 * MS + 100_000 + k * 900_000L; // 20.1 .. 37.2 ms, each 0.1 ms long
            if (at <= 30 * MS && at + 100_000 > 29 * MS) continue; // the wait: 29 to 30 ms
            hb.acquired(2, 42, at).released(2, 42, at + 100_000);
        }
        int site = 95;
        ReleaseSites sites = (thread, releaseNs) -> thread == 3 ? site : -1;
        Charges c = BlameCalculator.compute(b.build(), hb.build(), sites, IntSets.immutable.of(1));
        assertEquals(MS, c.waitedNs(BlameKind.MUTEX_LOCK));
        assertEquals(0, c.unattributedNs(BlameKind.MUTEX_LOCK));
        assertEquals(MS, charged(c, site, 3, BlameKind.MUTEX_LOCK));
    }

    /** {@link #waitingInAHandOverGoesToTheNearerHold}'s samples: thread 2 waits for mutex 42 from 1 to 9 ms. */
    private static SampleTable.Builder handOverSamples() {
        SampleTable.Builder b = new SampleTable.Builder();
        for (int t = 1; t < 9; t++) b.add(2, t * MS, MS, WaitClass.MUTEX, 42, 7, NODE_MAIN);
        spin(b, 1, 2, 10, WaitClass.WORK, 7, NODE_OTHER);
        b.add(3, 10 * MS, 9 * MS, WaitClass.WORK, 0, 7, NODE_OTHER);
        return b;
    }

    /** Its holds: thread 1's at 0..1 ms, thread 3's at 9..9.1 ms. */
    private static MutexHolds handOverHolds() {
        return new MutexHolds.Builder()
                .acquired(1, 42, 0)
                .released(1, 42, MS)
                .acquired(3, 42, 9 * MS)
                .released(3, 42, 9 * MS + 100_000)
                .build();
    }

    static long charged(Charges c, int node, int thread, BlameKind kind) {
        long sum = 0;
        for (int i = 0; i < c.size(); i++)
            if (c.node(i) == node && c.thread(i) == thread && c.kind(i) == kind) sum += c.valueNs(i);
        return sum;
    }
}
