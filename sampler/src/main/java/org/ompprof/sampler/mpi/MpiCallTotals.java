package org.ompprof.sampler.mpi;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.eclipse.collections.impl.map.mutable.primitive.IntObjectHashMap;
import org.ompprof.sampler.omp.OmpState;
import org.ompprof.sampler.wire.Wire;

/**
 * The MPI calls of a run as their enter and exit records measured them (not sampled): calls and
 * time per call kind, over all threads. The collector fills it as records pass; it ends up in
 * the recording's metadata as one line, which {@code info} shows.
 */
public final class MpiCallTotals {
    private final long[] calls = new long[Wire.MPI_CALLS];
    private final long[] ns = new long[Wire.MPI_CALLS];
    private final IntObjectHashMap<long[]> open = new IntObjectHashMap<>(); // thread -> {enter time, call}

    /** One record of thread {@code threadSeq}; exits without their enter are not counted. */
    public void add(int threadSeq, long timeNs, int call, int endpoint) {
        if (endpoint == Wire.MPI_CLOCK) return; // a clock measure, not a call
        int kind = call >= 0 && call < Wire.MPI_CALLS ? call : Wire.MPI_CALL_OTHER;
        if (endpoint == Wire.MPI_ENTER) {
            open.put(threadSeq, new long[] {timeNs, kind});
            return;
        }
        long[] enter = open.remove(threadSeq);
        if (enter == null || enter[1] != kind || timeNs < enter[0]) return;
        calls[kind]++;
        ns[kind] += timeNs - enter[0];
    }

    public boolean isEmpty() {
        for (long c : calls) if (c != 0) return false;
        return true;
    }

    /**
     * "mpi.allreduce 8 calls 469.9 ms, mpi.barrier 1 call 48.0 ms": kinds (by their states' names) with calls, most
     * time first.
     */
    public String summary() {
        List<Integer> kinds = new ArrayList<>();
        for (int k = 0; k < calls.length; k++) if (calls[k] != 0) kinds.add(k);
        kinds.sort((a, b) -> Long.compare(ns[b], ns[a]));
        List<String> parts = new ArrayList<>();
        for (int k : kinds) {
            String name = OmpState.mpi(k).displayName();
            parts.add(String.format(
                    Locale.ROOT, "%s %d call%s %.1f ms", name, calls[k], calls[k] == 1 ? "" : "s", ns[k] / 1e6));
        }
        return String.join(", ", parts);
    }
}
