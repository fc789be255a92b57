package org.ompprof.sampler.collect;

import java.util.List;

/**
 * The sampling rate a recording achieved, per thread (samples per second of the time they
 * stand for), over the threads that took enough samples to say.
 *
 * @param threads how many threads the figures cover (0: none took enough samples)
 * @param perfSamples samples delivered by perf cpu-clock events; the others came from timers
 */
public record SamplingRate(int threads, double medianHz, double lowestHz, long perfSamples, long samples) {
    static SamplingRate of(List<Double> perThread, long perfSamples, long samples) {
        if (perThread.isEmpty()) return new SamplingRate(0, 0, 0, perfSamples, samples);
        List<Double> sorted = perThread.stream().sorted().toList();
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return new SamplingRate(n, median, sorted.getFirst(), perfSamples, samples);
    }
}
