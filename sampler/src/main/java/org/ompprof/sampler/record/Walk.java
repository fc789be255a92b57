package org.ompprof.sampler.record;

import java.util.Arrays;
import org.ompprof.sampler.wire.Wire;

/**
 * The frames the agent's signal handler walked with its unwind rows, innermost first: each frame's pc (the
 * sampled rip for the first, a return address for the others) and sp (the sampled rsp for the first, else the
 * CFA of the frame it called). The sample's {@link Context} is where the walk stopped and {@link #stop()} says
 * why (a {@code Wire.WALK_*} value); in a checking recording ({@link #isCheck()}) the context is the sampled
 * registers with a plain snapshot instead, and the frames are all the walk found.
 */
public final class Walk {
    /** No walk: the context holds the sampled registers and the snapshot starts there. */
    public static final Walk NONE = new Walk(new long[0], new long[0], Wire.WALK_CONTINUE);

    private final long[] pcs;
    private final long[] sps;
    private final int stop;

    /** A walk of copies of {@code pcs} and {@code sps}. */
    public Walk(long[] pcs, long[] sps, int stop) {
        this(stop, pcs.clone(), sps.clone());
    }

    private Walk(int stop, long[] pcs, long[] sps) {
        if (pcs.length != sps.length) throw new IllegalArgumentException(pcs.length + " pcs, " + sps.length + " sps");
        this.pcs = pcs;
        this.sps = sps;
        this.stop = stop;
    }

    /** A walk of arrays no one else holds (the decoder's, just filled): not copied, a sample's walk made once. */
    static Walk owning(long[] pcs, long[] sps, int stop) {
        return new Walk(stop, pcs, sps);
    }

    public int count() {
        return pcs.length;
    }

    public long pc(int i) {
        return pcs[i];
    }

    public long sp(int i) {
        return sps[i];
    }

    /** {@code Wire.WALK_CONTINUE}, {@code WALK_COMPLETE} or {@code WALK_TASK_EXIT}. */
    public int stopKind() {
        return stop & 0xff;
    }

    public boolean isCheck() {
        return (stop & Wire.WALK_CHECK) != 0;
    }

    /** The way the walk ended: {@link #stopKind()}, with {@code Wire.WALK_CHECK} in a checking recording. */
    public int stop() {
        return stop;
    }

    public long[] pcs() {
        return pcs.clone();
    }

    public long[] sps() {
        return sps.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Walk w && stop == w.stop && Arrays.equals(pcs, w.pcs) && Arrays.equals(sps, w.sps);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(pcs) + Arrays.hashCode(sps)) + stop;
    }

    @Override
    public String toString() {
        return "Walk[" + pcs.length + " frames, stop 0x" + Integer.toHexString(stop) + "]";
    }
}
