package org.ompprof.sampler.recording;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * One thread of the run, keyed by the agent's thread sequence number.
 *
 * @param threadType ompt_thread_t, 0 if no thread_begin was seen
 * @param slot the slot it wrote to (-1 unknown)
 * @param beginNs thread_begin time, 0 if not seen; endNs likewise for thread_end
 * @param firstNs first record time, lastNs last record time (0 if it wrote none)
 * @param samplesDropped samples lost because the ring was full while this thread owned it;
 *     eventsDropped likewise for callback records
 * @param samplesByState sample counts per ompt_state_t value
 */
public record ThreadInfo(
        int seq,
        int osTid,
        int threadType,
        int slot,
        long beginNs,
        long endNs,
        long firstNs,
        long lastNs,
        long samples,
        long events,
        long samplesDropped,
        long eventsDropped,
        Map<Integer, Long> samplesByState) {
    public ThreadInfo {
        samplesByState = Collections.unmodifiableMap(new TreeMap<>(samplesByState));
    }
}
