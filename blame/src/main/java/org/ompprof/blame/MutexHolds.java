package org.ompprof.blame;

import java.util.Arrays;
import org.eclipse.collections.impl.list.mutable.primitive.LongArrayList;
import org.eclipse.collections.impl.map.mutable.primitive.IntLongHashMap;
import org.eclipse.collections.impl.map.mutable.primitive.IntObjectHashMap;
import org.eclipse.collections.impl.map.mutable.primitive.LongObjectHashMap;

/**
 * Who held each mutex when: intervals [acquired, released) per wait id, with the holding thread,
 * from the runtime's acquired and released events, and the kind each wait id was acquired as.
 */
public final class MutexHolds {
    /** One wait id's holds, sorted by start: start, end, thread interleaved. */
    private final LongObjectHashMap<long[]> holds;

    private final LongObjectHashMap<BlameKind> kinds;

    /**
     * Per thread: its waits [acquire, acquired) with the wait id the events name, start, end, id interleaved, by start.
     */
    private final IntObjectHashMap<long[]> waits;

    private MutexHolds(
            LongObjectHashMap<long[]> holds, LongObjectHashMap<BlameKind> kinds, IntObjectHashMap<long[]> waits) {
        this.holds = holds;
        this.kinds = kinds;
        this.waits = waits;
    }

    /**
     * The wait id of the mutex {@code thread} was waiting for at {@code t}, by its own acquire and
     * acquired events; 0 if they do not bracket t. Needed because libomp's thread state names a
     * lock by its internal object while the events name the user's {@code omp_lock_t}.
     */
    long waitingFor(int thread, long t) {
        long[] w = waits.get(thread);
        if (w == null) return 0;
        int lo = 0, hi = w.length / 3;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (w[3 * mid] <= t) lo = mid + 1;
            else hi = mid;
        }
        int i = lo - 1;
        return i >= 0 && w[3 * i + 1] > t ? w[3 * i + 2] : 0;
    }

    /** Holds looked through on either side of a moment for one by another thread (bounds a lookup's cost). */
    private static final int OTHERS_WITHIN = 1024;

    /**
     * The thread holding {@code waitId} at {@code t} other than {@code waiter}, with its hold; if
     * nobody holds it then (the runtime is handing it over: a release is seen by the next waiter a
     * little later, and a queuing lock is handed on in order, often to a thread that is not
     * running), of the last hold by another thread that ended before t and the first that began
     * after, the one nearer t; null if none.
     */
    Hold holderAt(long waitId, long t, int waiter) {
        long[] h = holds.get(waitId);
        if (h == null) return null;
        int n = h.length / 3;
        int lo = 0, hi = n; // last hold starting at or before t
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (h[3 * mid] <= t) lo = mid + 1;
            else hi = mid;
        }
        for (int i = lo - 1;
                i >= 0 && i >= lo - 8;
                i--) { // holds of one mutex do not overlap; look back a little for safety
            if (h[3 * i + 1] > t && h[3 * i + 2] != waiter) return hold(h, i);
        }
        // the waiter's own holds may come in a row around t (it takes the mutex again and again, and the holds of
        // others it waited behind were too short to be written): the other threads' holds lie further off
        int before = -1;
        for (int i = lo - 1; i >= 0 && i >= lo - OTHERS_WITHIN; i--) {
            if (before >= 0 && i < lo - 8) break; // past the few looked at for safety, holds end in order
            if (h[3 * i + 2] != waiter && h[3 * i + 1] <= t && (before < 0 || h[3 * i + 1] > h[3 * before + 1])) {
                before = i;
            }
        }
        int after = -1;
        for (int i = lo; i < n && i < lo + OTHERS_WITHIN && after < 0; i++) {
            if (h[3 * i + 2] != waiter) after = i;
        }
        if (before < 0) return after < 0 ? null : hold(h, after);
        if (after < 0 || t - h[3 * before + 1] <= h[3 * after] - t) return hold(h, before);
        return hold(h, after);
    }

    private static Hold hold(long[] h, int i) {
        return new Hold((int) h[3 * i + 2], h[3 * i], h[3 * i + 1]);
    }

    /** The kind the wait id was acquired as; locks when no acquire event was seen. */
    BlameKind kind(long waitId) {
        BlameKind k = kinds.get(waitId);
        return k == null ? BlameKind.MUTEX_LOCK : k;
    }

    record Hold(int thread, long start, long end) {
        boolean covers(long t) {
            return start <= t && t < end;
        }
    }

    /** Collects events thread by thread in time order (as a recording holds them). Not thread-safe. */
    public static final class Builder {
        private final LongObjectHashMap<LongArrayList> holds = new LongObjectHashMap<>();
        private final LongObjectHashMap<BlameKind> kinds = new LongObjectHashMap<>();
        /** Per wait id, per thread: when the current hold began. */
        private final LongObjectHashMap<IntLongHashMap> open = new LongObjectHashMap<>();

        /** Per thread: when it began to wait for which mutex. */
        private final IntObjectHashMap<long[]> waiting = new IntObjectHashMap<>();

        private final IntObjectHashMap<LongArrayList> waits = new IntObjectHashMap<>();

        /** The thread started to wait for (acquire) the mutex; its kind is taken from here. */
        public Builder acquire(int thread, long waitId, long timeNs, int omptMutexKind) {
            kinds.put(waitId, BlameKind.ofMutex(omptMutexKind));
            waiting.put(thread, new long[] {waitId, timeNs});
            return this;
        }

        public Builder acquired(int thread, long waitId, long timeNs) {
            open.getIfAbsentPut(waitId, IntLongHashMap::new).put(thread, timeNs);
            long[] w = waiting.remove(thread);
            if (w != null && w[0] == waitId)
                waits.getIfAbsentPut(thread, LongArrayList::new).addAll(w[1], timeNs, waitId);
            return this;
        }

        /** A release whose acquired event was lost (a full ring) makes no hold: its waiters stay unattributed. */
        public Builder released(int thread, long waitId, long timeNs) {
            IntLongHashMap byThread = open.get(waitId);
            if (byThread == null || !byThread.containsKey(thread)) return this;
            long start = byThread.removeKeyIfAbsent(thread, 0);
            holds.getIfAbsentPut(waitId, LongArrayList::new).addAll(start, timeNs, thread);
            return this;
        }

        public MutexHolds build() {
            LongObjectHashMap<long[]> sorted = new LongObjectHashMap<>();
            holds.forEachKeyValue((id, list) -> sorted.put(id, sortByStart(list.toArray())));
            IntObjectHashMap<long[]> byThread = new IntObjectHashMap<>();
            waits.forEachKeyValue((thread, list) -> byThread.put(thread, sortByStart(list.toArray())));
            return new MutexHolds(sorted, kinds, byThread);
        }

        private static long[] sortByStart(long[] h) {
            int n = h.length / 3;
            Integer[] idx = new Integer[n];
            for (int i = 0; i < n; i++) idx[i] = i;
            Arrays.sort(idx, (a, b) -> Long.compare(h[3 * a], h[3 * b]));
            long[] out = new long[h.length];
            for (int i = 0; i < n; i++) System.arraycopy(h, 3 * idx[i], out, 3 * i, 3);
            return out;
        }
    }
}
