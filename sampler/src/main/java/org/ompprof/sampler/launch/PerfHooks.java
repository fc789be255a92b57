package org.ompprof.sampler.launch;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * Holds one disabled perf event of the collector's own while the program runs, so that the
 * kernel's per-thread perf hooks are already on when the agent opens the program's cpu-clock
 * events. The first task-bound event on a machine with none turns them on and then waits for
 * every CPU to see it (an RCU grace period): 11.7 ms, measured inside the program's first
 * parallel region (first region of 4 threads: 21-24 ms recorded, 2 ms plain). Ours pays it
 * before the program starts. It counts the opening thread's CPU time, never enabled: holding it
 * is all it is for.
 *
 * <p>Where perf events are not allowed, or this JDK cannot call into libc, it holds nothing:
 * the agent falls back the same way.
 */
final class PerfHooks implements AutoCloseable {
    private static final long SYS_PERF_EVENT_OPEN = 298; // x86-64, the only target
    private static final int PERF_TYPE_SOFTWARE = 1;
    private static final long PERF_COUNT_SW_CPU_CLOCK = 0;
    private static final int PERF_ATTR_SIZE_VER0 = 64;
    private static final long DISABLED = 1L, EXCLUDE_KERNEL = 1L << 5, EXCLUDE_HV = 1L << 6;
    private static final long PERF_FLAG_FD_CLOEXEC = 1L << 3; // never inherited by the program

    private final int fd;

    private PerfHooks(int fd) {
        this.fd = fd;
    }

    /** Opens the event; empty where none could be opened. */
    static Optional<PerfHooks> hold() {
        int fd = open();
        return fd < 0 ? Optional.empty() : Optional.of(new PerfHooks(fd));
    }

    private static int open() {
        try {
            Linker linker = Linker.nativeLinker();
            MethodHandle syscall = linker.downcallHandle(
                    linker.defaultLookup().find("syscall").orElseThrow(),
                    FunctionDescriptor.of(
                            ValueLayout.JAVA_LONG,
                            ValueLayout.JAVA_LONG,
                            ValueLayout.ADDRESS,
                            ValueLayout.JAVA_LONG,
                            ValueLayout.JAVA_LONG,
                            ValueLayout.JAVA_LONG,
                            ValueLayout.JAVA_LONG),
                    Linker.Option.firstVariadicArg(1));
            try (Arena arena = Arena.ofConfined()) {
                // perf_event_paranoid 2 allows our own user time only: the agent asks the same way
                for (long flags : new long[] {DISABLED, DISABLED | EXCLUDE_KERNEL | EXCLUDE_HV}) {
                    MemorySegment attr = arena.allocate(PERF_ATTR_SIZE_VER0, 8);
                    attr.set(ValueLayout.JAVA_INT, 0, PERF_TYPE_SOFTWARE);
                    attr.set(ValueLayout.JAVA_INT, 4, PERF_ATTR_SIZE_VER0);
                    attr.set(ValueLayout.JAVA_LONG, 8, PERF_COUNT_SW_CPU_CLOCK);
                    attr.set(ValueLayout.JAVA_LONG, 40, flags);
                    long fd = (long) syscall.invokeExact(SYS_PERF_EVENT_OPEN, attr, 0L, -1L, -1L, PERF_FLAG_FD_CLOEXEC);
                    if (fd >= 0) return (int) fd;
                }
            }
            return -1;
        } catch (Throwable e) { // no native access in this JVM: nothing held, nothing else changes
            return -1;
        }
    }

    int fd() {
        return fd;
    }

    @Override
    public void close() {
        try {
            Linker linker = Linker.nativeLinker();
            MethodHandle close = linker.downcallHandle(
                    linker.defaultLookup().find("close").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
            int ignored = (int) close.invokeExact(fd);
        } catch (Throwable e) {
            // the descriptor goes with the JVM, a moment later
        }
    }
}
