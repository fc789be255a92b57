package org.ompprof.sampler.mpi;

import java.util.Arrays;
import java.util.stream.Stream;
import org.eclipse.collections.impl.map.mutable.primitive.IntObjectHashMap;
import org.ompprof.sampler.omp.OmpState;
import org.ompprof.sampler.omp.WaitClass;
import org.ompprof.sampler.record.MpiEvent;
import org.ompprof.sampler.record.WireRecord;

/**
 * When each thread was inside an MPI call, from the enter and exit records of the calls: a
 * sample taken in [enter, exit) of a call is counted in the call's state ({@link OmpState#mpi(int)})
 * instead of the work state OMPT reports there. A call entered and never left (the program died
 * in it, or the exit record was dropped) lasts to the end of the thread; an exit without its
 * enter, or an enter while a call is still open (a dropped exit), ends what is open there.
 */
public final class MpiIntervals {
    private static final MpiIntervals NONE = new MpiIntervals(new IntObjectHashMap<>());

    private final IntObjectHashMap<Calls> byThread;

    private MpiIntervals(IntObjectHashMap<Calls> byThread) {
        this.byThread = byThread;
    }

    /** No MPI calls: every state stays as it is. */
    public static MpiIntervals none() {
        return NONE;
    }

    /** From a recording's records, each thread's in time order (others than MPI ones are passed over). */
    public static MpiIntervals of(Stream<WireRecord> records) {
        IntObjectHashMap<Calls.Builder> builders = new IntObjectHashMap<>();
        records.forEach(r -> {
            if (r instanceof MpiEvent m && !m.isClock())
                builders.getIfAbsentPut(m.threadSeq(), Calls.Builder::new).add(m);
        });
        if (builders.isEmpty()) return NONE;
        IntObjectHashMap<Calls> out = new IntObjectHashMap<>();
        builders.forEachKeyValue((thread, b) -> out.put(thread, b.build()));
        return new MpiIntervals(out);
    }

    public boolean isEmpty() {
        return byThread.isEmpty();
    }

    /** The call kind ({@code Wire.MPI_CALL_*}) thread {@code threadSeq} was inside at {@code timeNs}, or -1. */
    public int callAt(int threadSeq, long timeNs) {
        Calls c = byThread.get(threadSeq);
        return c == null ? -1 : c.callAt(timeNs);
    }

    /**
     * The state a sample of {@code threadSeq} at {@code timeNs} is counted in: the MPI call's
     * state where OMPT said the thread worked (a thread inside MPI is in no OpenMP wait), else
     * {@code ompState} itself.
     */
    public int stateAt(int threadSeq, long timeNs, int ompState) {
        if (byThread.isEmpty() || OmpState.of(ompState).waitClass() != WaitClass.WORK) return ompState;
        int call = callAt(threadSeq, timeNs);
        return call < 0 ? ompState : OmpState.mpi(call).code();
    }

    /** Total time inside calls of kind {@code call} on thread {@code threadSeq}, open calls to {@code endNs}. */
    public long insideNs(int threadSeq, int call, long endNs) {
        Calls c = byThread.get(threadSeq);
        return c == null ? 0 : c.insideNs(call, endNs);
    }

    /** One thread's calls, sorted by their enter times, not overlapping. */
    private record Calls(long[] start, long[] end, int[] call) {
        int callAt(long t) {
            int i = Arrays.binarySearch(start, t);
            if (i < 0) i = -i - 2; // the last call entered at or before t
            while (i >= 0 && i + 1 < start.length && start[i + 1] == t)
                i++; // of equal enters, the last (the others last 0 ns)
            return i >= 0 && t < end[i] ? call[i] : -1;
        }

        long insideNs(int kind, long endNs) {
            long sum = 0;
            for (int i = 0; i < start.length; i++) {
                if (call[i] == kind) sum += Math.max(0, Math.min(end[i], endNs) - start[i]);
            }
            return sum;
        }

        static final class Builder {
            private long[] start = new long[16], end = new long[16];
            private int[] call = new int[16];
            private int n;
            private boolean open;

            void add(MpiEvent m) {
                if (n > 0 && m.timeNs() < start[n - 1]) return; // back in time: not as the agent writes; ignored
                if (m.isEnter()) {
                    if (open) end[n - 1] = m.timeNs();
                    grow();
                    start[n] = m.timeNs();
                    end[n] = Long.MAX_VALUE;
                    call[n] = m.call();
                    n++;
                    open = true;
                } else if (open) {
                    end[n - 1] = m.timeNs();
                    open = false;
                }
            }

            private void grow() {
                if (n < start.length) return;
                start = Arrays.copyOf(start, n * 2);
                end = Arrays.copyOf(end, n * 2);
                call = Arrays.copyOf(call, n * 2);
            }

            Calls build() {
                long[] s = Arrays.copyOf(start, n), e = Arrays.copyOf(end, n);
                int[] c = Arrays.copyOf(call, n);
                // enters out of order across drops cannot overlap once each ends at the next enter
                for (int i = 0; i + 1 < n; i++) e[i] = Math.min(e[i], s[i + 1]);
                return new Calls(s, e, c);
            }
        }
    }
}
