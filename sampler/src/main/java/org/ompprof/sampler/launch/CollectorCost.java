package org.ompprof.sampler.launch;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

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
