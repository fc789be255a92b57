package org.ompprof.sampler.collect;

import java.util.Map;
import java.util.TreeMap;
import org.eclipse.collections.api.map.primitive.MutableIntLongMap;
import org.eclipse.collections.impl.map.mutable.primitive.IntLongHashMap;
import org.ompprof.sampler.recording.ThreadInfo;

/** What the drainer has learned about one thread so far. Used by the drainer thread only. */
final class ThreadAccumulator {
    final int seq;
    int osTid;
    int threadType;
    int slot = -1;
    long beginNs;
    long endNs;
    long firstNs;
    long lastNs;
    long samples;
    long weightNs;
    long perfSamples;
    long events;
    long samplesDropped;
    long eventsDropped;
    private final MutableIntLongMap byState = new IntLongHashMap();

    ThreadAccumulator(int seq) {
        this.seq = seq;
    }

    void saw(long timeNs) {
        if (firstNs == 0 || timeNs < firstNs) firstNs = timeNs;
        if (timeNs > lastNs) lastNs = timeNs;
    }

    void sample(long timeNs, int osTid, int state, long weightNs, boolean perf) {
        samples++;
        this.weightNs += weightNs;
        if (perf) perfSamples++;
        if (this.osTid == 0) this.osTid = osTid;
        byState.addToValue(state, 1);
        saw(timeNs);
    }

    ThreadInfo toInfo() {
        Map<Integer, Long> states = new TreeMap<>();
        for (int state : byState.keySet().toArray())
            states.put(state, byState.get(state)); // no lambda to link at the end
        return new ThreadInfo(
                seq,
                osTid,
                threadType,
                slot,
                beginNs,
                endNs,
                firstNs,
                lastNs,
                samples,
                events,
                samplesDropped,
                eventsDropped,
                states);
    }
}
