package org.ompprof.sampler.launch;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What this JVM (the collector) has cost so far: its CPU time, all threads together (the JDK's
 * process CPU time, in the kernel's clock ticks), and its peak heap use. Read at a few moments
 * of a recording (the program's start and end, the profile written) and kept in the metadata.
 */
public final class CollectorCost {
    private CollectorCost() {}

    /** CPU time used by this JVM since it started, in ns; -1 if the platform does not tell. */
    public static long cpuNs() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    /**
     * This JVM's resident memory at its highest so far (the kernel's VmHWM), in bytes: what one
     * collector costs the node (an MPI job runs one per rank); -1 if the kernel does not tell.
     */
    public static long peakRssBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (!line.startsWith("VmHWM:")) continue;
                String[] f = line.substring("VmHWM:".length()).trim().split("\\s+");
                return Long.parseLong(f[0]) * 1024; // the kernel says kB
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /**
     * The heap pools' peak use added up, in bytes: an upper bound of the heap's peak (pools peak
     * at different moments), and what the JVM had to be given.
     */
    public static long peakHeapBytes() {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null)
                sum += pool.getPeakUsage().getUsed();
        }
        return sum;
    }
}
