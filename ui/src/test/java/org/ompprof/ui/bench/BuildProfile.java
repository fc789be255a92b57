package org.ompprof.ui.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import org.ompprof.calltree.build.ProfileBuilder;
import org.ompprof.calltree.profile.ProfileWriter;
import org.ompprof.sampler.recording.Recording;

/**
 * {@code BuildProfile RAW OUT stream|whole [RESOLUTION_NS]}: builds the profile of a raw recording as
 * {@code record} does when the program ends (stream: timelines written as they grow, blame by
 * window) or whole in memory first (as {@code info} of a raw file does), then prints the time
 * and the heap's high-water mark. Run it with a capped heap to find what a recording needs.
 */
public final class BuildProfile {
    private BuildProfile() {}

    public static void main(String[] args) throws Exception {
        long t0 = System.nanoTime();
        long bytes;
        try (Recording r = Recording.open(Path.of(args[0]))) {
            bytes = switch (args[2]) {
                case "stream" ->
                    ProfileBuilder.buildInto(Path.of(args[1]), r, args.length > 3 ? Long.parseLong(args[3]) : 0);
                case "whole" -> ProfileWriter.write(Path.of(args[1]), r, ProfileBuilder.build(r));
                default -> throw new IllegalArgumentException("stream or whole, not " + args[2]);
            };
        }
        long peak = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans())
            if (p.getType() == MemoryType.HEAP) peak += p.getPeakUsage().getUsed();
        System.out.printf(
                "%s: %d bytes written in %.1f s, heap peak %d MB (sum of pools' peaks), max heap %d MB%n",
                args[2],
                bytes,
                (System.nanoTime() - t0) / 1e9,
                peak >> 20,
                Runtime.getRuntime().maxMemory() >> 20);
    }
}
