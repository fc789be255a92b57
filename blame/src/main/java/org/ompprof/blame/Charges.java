package org.ompprof.blame;

import java.util.Arrays;
import java.util.List;

/**
 * The result of blame: waiting time charged to (context, thread) pairs per {@link BlameKind},
 * summed, with what was waited and what found no blamee, per kind. Immutable.
 */
public final class Charges {
    /** The node of charges that found no blamee (no working thread, unknown holder). */
    public static final int UNATTRIBUTED = -1;

    private final int[] node;
    private final int[] thread;
    private final byte[] kind;
    private final long[] value;
    private final boolean[] regionLatency;
    private final long[] waited;
    private final long[] charged;
    private final long[] unattributed;
    private final long[] latency;
    private final long[] outsideHold;
    private final long[] handedOver;

    private final List<Mutex> mutexes;

    /**
     * One mutex (by the wait id its events name) that threads waited for.
     *
     * @param topNode the context most of its waiting is charged to ({@link #UNATTRIBUTED} if none)
     */
    public record Mutex(long waitId, BlameKind kind, long waitedNs, int topNode, long topNodeNs) {}

    /** The (node, thread, kind) sums, in columns; a region latency sum's node is the waiter's own context. */
    record Sums(int[] node, int[] thread, byte[] kind, long[] value, boolean[] regionLatency) {}

    Charges(
            Sums sums,
            long[] waited,
            long[] unattributed,
            long[] latency,
            long[] outsideHold,
            long[] handedOver,
            List<Mutex> mutexes) {
        this.mutexes = List.copyOf(mutexes);
        this.node = sums.node();
        this.thread = sums.thread();
        this.kind = sums.kind();
        this.value = sums.value();
        this.regionLatency = sums.regionLatency();
        this.waited = waited;
        this.unattributed = unattributed;
        this.latency = latency;
        this.outsideHold = outsideHold;
        this.handedOver = handedOver;
        this.charged = new long[waited.length];
        for (int i = 0; i < value.length; i++) charged[kind[i]] += value[i];
    }

    /** Every mutex waited for, by wait id. */
    public List<Mutex> mutexes() {
        return mutexes;
    }

    /** Number of (node, thread, kind) sums. */
    public int size() {
        return value.length;
    }

    /**
     * The blamed context, or {@link #UNATTRIBUTED}; for a {@link #isRegionLatency region latency} sum, the waiter's
     * context.
     */
    public int node(int i) {
        return node[i];
    }

    /** The thread whose work is blamed (the waiter's own, for unattributed charges). */
    public int thread(int i) {
        return thread[i];
    }

    /**
     * Whether sum i is barrier waiting while nobody in the team worked (fork and join latency,
     * threads descheduled at the barrier): the barrier's own cost, charged to the waiter's own
     * context ({@link #node}), the barrier.
     */
    public boolean isRegionLatency(int i) {
        return regionLatency[i];
    }

    public BlameKind kind(int i) {
        return BlameKind.values()[kind[i]];
    }

    public long valueNs(int i) {
        return value[i];
    }

    /** Time the samples of this kind waited. */
    public long waitedNs(BlameKind k) {
        return waited[k.ordinal()];
    }

    /** Time charged for this kind, unattributed included: equal to {@link #waitedNs} by construction. */
    public long chargedNs(BlameKind k) {
        return charged[k.ordinal()];
    }

    public long unattributedNs(BlameKind k) {
        return unattributed[k.ordinal()];
    }

    /** Waiting of this kind charged as {@link #isRegionLatency region latency}. */
    public long regionLatencyNs(BlameKind k) {
        return latency[k.ordinal()];
    }

    /**
     * Mutex waiting charged to the holder's context nearest its release, because the hold had no sample of the holder.
     */
    public long outsideHoldNs(BlameKind k) {
        return outsideHold[k.ordinal()];
    }

    /**
     * Mutex waiting sampled while no other thread held the mutex: between a release and the next holder's acquisition,
     * the mutex being handed on to a thread that was not running (more threads than free cores) or not yet seen free.
     * Charged to the nearer hold around it, and counted here: it is the machine's, not the holder's code.
     */
    public long handedOverNs(BlameKind k) {
        return handedOver[k.ordinal()];
    }

    @Override
    public String toString() {
        return "Charges[waited " + Arrays.toString(waited) + ", charged " + Arrays.toString(charged) + ", unattributed "
                + Arrays.toString(unattributed) + ", region latency " + Arrays.toString(latency) + ", " + value.length
                + " sums]";
    }
}
