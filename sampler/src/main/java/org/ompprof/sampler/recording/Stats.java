package org.ompprof.sampler.recording;

import java.util.List;

/**
 * What the run cost and what it lost.
 *
 * @param handlerCalls samples taken by the handler; handlerNs its total time
 * @param reentered signals that found the handler already running
 * @param noSlotDrops records dropped because every slot was taken
 * @param disabledSignals SIGPROFs that arrived while sampling was off
 * @param malformed stretches of ring bytes skipped as malformed
 * @param malformedExamples the first few problems, for diagnosis
 * @param modulesNotCaptured "PATH: why" for each module whose image is missing
 * @param sampleRingPeak the most bytes the drainer found waiting in one sample ring (0: not measured)
 * @param eventRingPeak the same for the event rings: with the rings' sizes, how near the run came to losing records
 * @param mutexSkipped lock, critical, ordered and atomic callbacks that wrote no record (uncontended: nobody was
 *     sampled waiting for the mutex during the hold)
 * @param mutexMarked samples that found their thread waiting for a mutex, whose holders then wrote their holds
 * @param mutexTableFull marks that found the agent's table of waited-for mutexes full (holds over-recorded, none lost)
 * @param sampleBytes bytes of sample records the handler wrote to the rings (0: not measured); over handlerCalls, the
 *     mean record size
 */
public record Stats(
        HandlerHistogram histogram,
        long handlerCalls,
        long handlerNs,
        long reentered,
        long noSlotDrops,
        long disabledSignals,
        long malformed,
        List<String> malformedExamples,
        List<RingStats> rings,
        List<String> modulesNotCaptured,
        long sampleRingPeak,
        long eventRingPeak,
        long mutexSkipped,
        long mutexMarked,
        long mutexTableFull,
        long sampleBytes) {
    public Stats {
        malformedExamples = List.copyOf(malformedExamples);
        rings = List.copyOf(rings);
        modulesNotCaptured = List.copyOf(modulesNotCaptured);
    }

    /** Stats without the sample bytes (recordings made before they were counted, merged runs). */
    public Stats(
            HandlerHistogram histogram,
            long handlerCalls,
            long handlerNs,
            long reentered,
            long noSlotDrops,
            long disabledSignals,
            long malformed,
            List<String> malformedExamples,
            List<RingStats> rings,
            List<String> modulesNotCaptured,
            long sampleRingPeak,
            long eventRingPeak,
            long mutexSkipped,
            long mutexMarked,
            long mutexTableFull) {
        this(
                histogram,
                handlerCalls,
                handlerNs,
                reentered,
                noSlotDrops,
                disabledSignals,
                malformed,
                malformedExamples,
                rings,
                modulesNotCaptured,
                sampleRingPeak,
                eventRingPeak,
                mutexSkipped,
                mutexMarked,
                mutexTableFull,
                0);
    }

    /** Stats without mutex counters (recordings made before they were counted). */
    public Stats(
            HandlerHistogram histogram,
            long handlerCalls,
            long handlerNs,
            long reentered,
            long noSlotDrops,
            long disabledSignals,
            long malformed,
            List<String> malformedExamples,
            List<RingStats> rings,
            List<String> modulesNotCaptured,
            long sampleRingPeak,
            long eventRingPeak) {
        this(
                histogram,
                handlerCalls,
                handlerNs,
                reentered,
                noSlotDrops,
                disabledSignals,
                malformed,
                malformedExamples,
                rings,
                modulesNotCaptured,
                sampleRingPeak,
                eventRingPeak,
                0,
                0,
                0,
                0);
    }

    /** Stats without ring peaks (recordings made before they were measured, synthetic ones). */
    public Stats(
            HandlerHistogram histogram,
            long handlerCalls,
            long handlerNs,
            long reentered,
            long noSlotDrops,
            long disabledSignals,
            long malformed,
            List<String> malformedExamples,
            List<RingStats> rings,
            List<String> modulesNotCaptured) {
        this(
                histogram,
                handlerCalls,
                handlerNs,
                reentered,
                noSlotDrops,
                disabledSignals,
                malformed,
                malformedExamples,
                rings,
                modulesNotCaptured,
                0,
                0,
                0,
                0,
                0,
                0);
    }

    public long samplesDropped() {
        return rings.stream().mapToLong(RingStats::sampleDropped).sum();
    }

    public long eventsDropped() {
        return rings.stream().mapToLong(RingStats::eventDropped).sum();
    }

    /** Every record lost: full rings and no free slot. */
    public long totalDropped() {
        return samplesDropped() + eventsDropped() + noSlotDrops;
    }
}
