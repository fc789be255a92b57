package org.ompprof.calltree.profile;

import org.ompprof.sampler.recording.BadSectionException;

/**
 * A TIMELINE section holds a run of one thread's samples; a long timeline is cut into several
 * so that each stays small. Per sample: one varint whose low bits say whether the state and the
 * weight changed and whose rest is the node's distance from the previous sample's; the time
 * since the previous sample; then the new state and weight if they changed. A sample in the
 * same context as the one before, at the usual period, thus costs about four bytes before
 * compression.
 */
public final class TimelineCodec {
    /** Samples per section. */
    public static final int CHUNK = 1 << 20;

    private static final int STATE_CHANGED = 1;
    private static final int WEIGHT_CHANGED = 2;

    private TimelineCodec() {}

    /** Samples [from, to) of {@code t}. */
    public static byte[] encode(Timeline t, int from, int to) {
        ByteSink out = new ByteSink();
        out.varint(to - from);
        long time = 0, weight = 0;
        int node = 0, state = 0;
        for (int i = from; i < to; i++) {
            int flags = (t.state(i) != state ? STATE_CHANGED : 0) | (t.weightNs(i) != weight ? WEIGHT_CHANGED : 0);
            out.varint(zigzag(t.node(i) - (long) node) << 2 | flags);
            out.zigzag(t.timeNs(i) - time);
            if ((flags & STATE_CHANGED) != 0) out.varint(Integer.toUnsignedLong(t.state(i)));
            if ((flags & WEIGHT_CHANGED) != 0) out.zigzag(t.weightNs(i));
            time = t.timeNs(i);
            node = t.node(i);
            state = t.state(i);
            weight = t.weightNs(i);
        }
        return out.toByteArray();
    }

    /** Appends the section's samples to {@code into}; node ids must be below {@code nodes}. */
    public static void decode(byte[] payload, int nodes, Timeline.Builder into) {
        ByteSource in = new ByteSource(payload);
        int count = in.count(2, "samples");
        long time = 0, weight = 0, node = 0;
        int state = 0;
        for (int i = 0; i < count; i++) {
            int at = in.position();
            long head = in.varint();
            node += unzigzag(head >>> 2);
            time += in.zigzag();
            if ((head & STATE_CHANGED) != 0) state = in.bounded(0xFFFF_FFFFL, "state");
            if ((head & WEIGHT_CHANGED) != 0) weight = in.zigzag();
            if (node < 0 || node >= nodes) throw new BadSectionException(at, "sample in node " + node + " of " + nodes);
            if (weight < 0) throw new BadSectionException(at, "negative sample weight " + weight);
            into.add(time, (int) node, state, weight);
        }
        in.end("timeline");
    }

    private static long zigzag(long v) {
        return (v << 1) ^ (v >> 63);
    }

    private static long unzigzag(long v) {
        return (v >>> 1) ^ -(v & 1);
    }
}
