package org.ompprof.blame;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.collections.api.set.primitive.IntSet;
import org.eclipse.collections.impl.list.mutable.primitive.IntArrayList;
import org.eclipse.collections.impl.map.mutable.primitive.IntLongHashMap;
import org.eclipse.collections.impl.map.mutable.primitive.LongLongHashMap;
import org.eclipse.collections.impl.map.mutable.primitive.LongObjectHashMap;
import org.eclipse.collections.impl.set.mutable.primitive.IntHashSet;
import org.ompprof.sampler.omp.WaitClass;

/**
 * Charges every waiting sample to the contexts that made it wait (see the package
 * documentation for the rules). One pass over the samples; each look-up of another thread's
 * work is a binary search in that thread's samples.
 */
public final class BlameCalculator {
    /** A candidate's nearest sample counts as "at that moment" within this many sample weights. */
    private static final int WINDOW_WEIGHTS = 2;
    /** How far idle waiting passes on along waiting threads: one level per nesting level of teams. */
    private static final int PASS_ON = 4;

    private final MutexHolds holds;
    private final ReleaseSites sites;
    private final IntSet initialSeqs;
    private final ChargeSums sums = new ChargeSums();
    private final IntArrayList blamees = new IntArrayList();
    /** The threads already asked for one waiting sample: each at most once, however waiting passes on. */
    private final IntHashSet asked = new IntHashSet();

    private final LongLongHashMap waitedByMutex = new LongLongHashMap();
    private final LongObjectHashMap<IntLongHashMap> blameByMutex = new LongObjectHashMap<>();
    /** The samples being charged and what is derived from them: one window of the run, or all of it. */
    private SampleTable s;

    private int[] initialThreads;
    private int[] allThreads;
    /** Region to the thread indices that have samples in it. */
    private LongObjectHashMap<int[]> teams;

    BlameCalculator(MutexHolds holds, ReleaseSites sites, IntSet initialThreads) {
        this.holds = holds;
        this.sites = sites;
        this.initialSeqs = initialThreads;
    }

    /**
     * @param initialThreads the threads whose work idle threads are blamed on (the program's
     *     initial thread, and any thread that started OpenMP itself)
     */
    public static Charges compute(SampleTable samples, MutexHolds holds, IntSet initialThreads) {
        return compute(samples, holds, ReleaseSites.NONE, initialThreads);
    }

    /** As {@link #compute(SampleTable, MutexHolds, IntSet)}, with where the holds were released. */
    public static Charges compute(SampleTable samples, MutexHolds holds, ReleaseSites sites, IntSet initialThreads) {
        BlameCalculator c = new BlameCalculator(holds, sites, initialThreads);
        c.charge(samples, Long.MIN_VALUE, Long.MAX_VALUE);
        return c.result();
    }

    /**
     * Charges the samples of {@code window} taken in [fromNs, toNs); the others are there to be
     * looked at (what other threads did around the edges). Adds to what earlier calls charged.
     */
    void charge(SampleTable window, long fromNs, long toNs) {
        s = window;
        IntArrayList initial = new IntArrayList();
        initialSeqs.forEach(t -> {
            int k = s.threadIndex(t);
            if (k >= 0) initial.add(k);
        });
        initialThreads = initial.toSortedArray();
        allThreads = java.util.stream.IntStream.range(0, s.threads.length).toArray();
        indexTeams();
        for (int k = 0; k < s.threads.length; k++) {
            for (int i = s.from[k]; i < s.to[k]; i++) if (s.time[i] >= fromNs && s.time[i] < toNs) charge(i);
        }
    }

    private void indexTeams() {
        LongObjectHashMap<IntHashSet> members = new LongObjectHashMap<>();
        for (int k = 0; k < s.threads.length; k++) {
            for (int i = s.from[k]; i < s.to[k]; i++)
                if (s.region[i] != 0)
                    members.getIfAbsentPut(s.region[i], IntHashSet::new).add(k);
        }
        teams = new LongObjectHashMap<>();
        members.forEachKeyValue((region, set) -> teams.put(region, set.toSortedArray()));
    }

    private void charge(int i) {
        WaitClass c = WaitClass.ofOrdinal(s.cls[i]);
        long w = s.weight[i];
        switch (c) {
            case IDLE -> undirected(i, BlameKind.IDLE, initialThreads, w, PASS_ON);
            case BARRIER -> undirected(i, BlameKind.BARRIER, team(s.region[i], s.threadIndex(s.thread[i])), w, 0);
            case MUTEX -> directed(i, w);
            default -> {}
        }
    }

    /**
     * The threads with samples in the region; when the waiter is the only one (regions shorter
     * than the sampling period: a region-heavy loop's other threads are seldom sampled inside
     * the instance the waiter is), every thread, whose samples covering the moment then say who
     * was working.
     */
    private int[] team(long region, int waiter) {
        int[] t = teams.get(region);
        if (t == null || t.length == 0 || (t.length == 1 && t[0] == waiter)) return allThreads;
        return t;
    }

    /**
     * Equal shares among what the candidates are working on at that moment: each candidate's
     * sample whose stretch covers it, if a working one. When no candidate has one, the moment is
     * read from the samples around it (see {@link #addNearCause}).
     *
     * @param passOn how many times a candidate that waits at another region's barrier passes the
     *     waiting on to that region's threads (idle threads wait for the initial thread, which may
     *     itself wait for its team, whose threads may wait for their nested teams)
     */
    private void undirected(int i, BlameKind kind, int[] candidates, long w, int passOn) {
        sums.waited(kind, w);
        int own = s.threadIndex(s.thread[i]);
        blamees.clear();
        asked.clear();
        asked.add(own);
        for (int k : candidates) if (asked.add(k)) addCoveringCause(k, i, passOn);
        if (blamees.isEmpty()) {
            asked.clear();
            asked.add(own);
            for (int k : candidates) if (asked.add(k)) addNearCause(k, i, passOn);
        }
        if (blamees.isEmpty()) {
            if (kind == BlameKind.BARRIER && s.region[i] != 0) regionLatency(i, kind, w);
            else unattributed(i, kind, w);
            return;
        }
        long share = w / blamees.size(), rest = w % blamees.size();
        for (int b = 0; b < blamees.size(); b++) {
            int j = blamees.get(b);
            add(s.node[j], s.thread[j], kind, share + (b < rest ? 1 : 0));
        }
    }

    /**
     * Thread k's sample covering waiting sample i's moment if it works then; a k waiting at another region's barrier
     * passes the waiting on.
     */
    private void addCoveringCause(int k, int i, int passOn) {
        int j = s.covering(k, s.time[i]);
        if (j < 0) return;
        WaitClass c = WaitClass.ofOrdinal(s.cls[j]);
        if (c == WaitClass.WORK) addBlamee(j);
        else if (passOn > 0 && passesOn(j, i)) {
            for (int m : team(s.region[j], k)) if (asked.add(m)) addCoveringCause(m, i, passOn - 1);
        }
    }

    /**
     * Nobody's covering sample was a working one (a region shorter than the sampling period is
     * over by the others' next samples, which show them idle or waiting already; a descheduled
     * thread's next sample comes late): someone was late, and what it did around that moment is
     * the best account. Thread k's working sample in the waiter's region instance nearest the
     * moment, else a k that waits at another region's barrier around then passes the waiting on
     * (as above), else k's working sample nearest the moment within {@link #WINDOW_WEIGHTS}
     * weights of the waiter's sample or of k's covering one.
     */
    private void addNearCause(int k, int i, int passOn) {
        long t = s.time[i];
        int inRegion = s.region[i] == 0 ? -1 : s.workingInRegion(k, t, s.region[i]);
        if (inRegion >= 0) {
            addBlamee(inRegion);
            return;
        }
        int j = s.covering(k, t);
        long window = WINDOW_WEIGHTS * Math.max(s.weight[i], j >= 0 ? s.weight[j] : 0);
        if (j < 0) j = s.nearestWithin(k, t, t - window, t + window + 1);
        int found = blamees.size();
        if (j >= 0 && passOn > 0 && passesOn(j, i)) {
            for (int m : team(s.region[j], k)) if (asked.add(m)) addNearCause(m, i, passOn - 1);
        }
        if (blamees.size() > found) return;
        int n = s.nearestWorking(k, t, window);
        if (n >= 0) addBlamee(n);
    }

    /** Sample j waits at the barrier of a region other than waiting sample i's. */
    private boolean passesOn(int j, int i) {
        return WaitClass.ofOrdinal(s.cls[j]) == WaitClass.BARRIER && s.region[j] != 0 && s.region[j] != s.region[i];
    }

    private void addBlamee(int j) {
        if (!blamees.contains(j)) blamees.add(j);
    }

    /**
     * All to what the holder does inside its hold: at the holder's sample in the hold nearest that
     * moment (a descheduled holder's nearest sample overall may lie before or after the hold, in
     * code that never held the mutex), else at the hold's release site, where the holder's code
     * released it (a hold of microseconds is seldom sampled). Only when neither is known, at the
     * holder's samples around its release.
     */
    private void directed(int i, long w) {
        long byEvents = holds.waitingFor(s.thread[i], s.time[i]);
        long waitId = byEvents != 0 ? byEvents : s.waitId[i];
        BlameKind kind = holds.kind(waitId);
        sums.waited(kind, w);
        waitedByMutex.addToValue(waitId, w);
        MutexHolds.Hold hold = holds.holderAt(waitId, s.time[i], s.thread[i]);
        if (hold != null && !hold.covers(s.time[i])) sums.handedOver[kind.ordinal()] += w;
        int k = hold == null ? -1 : s.threadIndex(hold.thread());
        int j = k < 0 ? -1 : s.nearestWithin(k, s.time[i], hold.start(), hold.end());
        if (j >= 0) {
            toHolder(waitId, s.node[j], s.thread[j], kind, w);
            return;
        }
        int site = hold == null ? -1 : sites.node(hold.thread(), hold.end());
        if (site >= 0) {
            toHolder(waitId, site, hold.thread(), kind, w);
        } else if (k >= 0) {
            j = beforeRelease(k, hold.end());
            sums.outsideHold[kind.ordinal()] += w;
            toHolder(waitId, s.node[j], s.thread[j], kind, w);
        } else {
            unattributed(i, kind, w);
            blameByMutex.getIfAbsentPut(waitId, IntLongHashMap::new).addToValue(Charges.UNATTRIBUTED, w);
        }
    }

    private void toHolder(long waitId, int node, int thread, BlameKind kind, long w) {
        add(node, thread, kind, w);
        blameByMutex.getIfAbsentPut(waitId, IntLongHashMap::new).addToValue(node, w);
    }

    /**
     * The holder's sample that stands for its release site: of its last sample before the release
     * and its first after, the nearer one that is working (right after a release the holder is
     * often already waiting for its next turn, which is not where it released), else the nearer.
     */
    private int beforeRelease(int k, long end) {
        int first = s.firstAtOrAfter(k, end);
        int after = first < s.to[k] ? first : -1;
        int before = first > s.from[k] ? first - 1 : -1;
        boolean beforeWorks = before >= 0 && WaitClass.ofOrdinal(s.cls[before]) == WaitClass.WORK;
        boolean afterWorks = after >= 0 && WaitClass.ofOrdinal(s.cls[after]) == WaitClass.WORK;
        if (beforeWorks != afterWorks) return beforeWorks ? before : after;
        if (before < 0) return after;
        if (after < 0) return before;
        return end - s.time[before] <= s.time[after] - end ? before : after;
    }

    /**
     * Barrier waiting while nobody in the team works (all at the barrier, or between their
     * samples: fork and join latency, threads descheduled at the barrier): the region's own cost,
     * charged to the waiter's context, which lies in the region (the calculation's user places it
     * at the region's construct).
     */
    private void regionLatency(int i, BlameKind kind, long w) {
        sums.latency(s.node[i], s.thread[i], kind, w);
    }

    private void unattributed(int i, BlameKind kind, long w) {
        sums.unattributed(s.thread[i], kind, w);
    }

    private void add(int node, int thread, BlameKind kind, long value) {
        sums.charge(node, thread, kind, value);
    }

    Charges result() {
        return sums.result(mutexes(), sites::resolve);
    }

    /** Each mutex waited for, with the context most of its waiting went to. */
    private List<Charges.Mutex> mutexes() {
        List<Charges.Mutex> out = new ArrayList<>();
        for (long id : waitedByMutex.keysView().toSortedArray()) {
            IntLongHashMap by = resolved(blameByMutex.get(id));
            int top = Charges.UNATTRIBUTED;
            long topNs = 0;
            if (by != null) {
                for (int n : by.keysView().toSortedArray()) {
                    if (by.get(n) > topNs) {
                        top = n;
                        topNs = by.get(n);
                    }
                }
            }
            out.add(new Charges.Mutex(id, holds.kind(id), waitedByMutex.get(id), top, topNs));
        }
        return out;
    }

    /** A mutex's waiting per node, release sites made the nodes they stand for (two sites may be one node). */
    private IntLongHashMap resolved(IntLongHashMap byNode) {
        if (byNode == null) return null;
        IntLongHashMap out = new IntLongHashMap(byNode.size());
        for (int n : byNode.keysView().toSortedArray()) out.addToValue(sites.resolve(n), byNode.get(n));
        return out;
    }
}
