package org.ompprof.sampler.launch;

import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Waits, before the program starts, for this JVM's JIT compiler threads to finish what the
 * drain path's warm-up queued. The warm-up makes its methods hot in its last rounds, so their
 * compilations run just after it: on a machine whose cores the program's threads take, that
 * compiling was time taken from the program's first tenth of a second (4% of a 2-thread fib
 * run's CPU, in one perf profile). Waiting costs the whole command what the compiles take, and
 * the program nothing.
 *
 * <p>A compiler thread is quiet when the kernel's count of its run time ({@code schedstat},
 * nanoseconds) stands still for {@link #QUIET_POLLS} polls. Without {@code /proc} or schedstat
 * nothing is waited for.
 */
final class CompilerQuiet {
    /** Time between two looks: a C1 compilation of a drain-path method takes 0.1-2 ms. */
    static final long POLL_NS = 2_000_000;
    /** Looks in a row without a change that mean the queue is empty. */
    static final int QUIET_POLLS = 3;
    /** The longest wait: a JIT that keeps compiling (a busy machine) does not hold the program back longer. */
    static final long LIMIT_NS = 400_000_000;

    /** Sleeps for a poll's time: the tests step a clock of their own instead. */
    interface Pause {
        void pause() throws InterruptedException;
    }

    private final Supplier<OptionalLong> runNs;
    private final LongSupplier clock;
    private final Pause pause;

    CompilerQuiet(Supplier<OptionalLong> runNs, LongSupplier clock, Pause pause) {
        this.runNs = runNs;
        this.clock = clock;
        this.pause = pause;
    }

    /** Waits for this JVM's compiler threads; returns how long it waited, in ns. */
    static long await() throws InterruptedException {
        Path tasks = Path.of("/proc/self/task");
        return new CompilerQuiet(() -> runNs(tasks), System::nanoTime, () -> Thread.sleep(POLL_NS / 1_000_000))
                .awaitQuiet(LIMIT_NS);
    }

    long awaitQuiet(long limitNs) throws InterruptedException {
        long start = clock.getAsLong();
        OptionalLong last = runNs.get();
        if (last.isEmpty()) return 0;
        for (int still = 0; still < QUIET_POLLS && clock.getAsLong() - start < limitNs; ) {
            pause.pause();
            OptionalLong now = runNs.get();
            if (now.isEmpty()) break;
            still = now.getAsLong() == last.getAsLong() ? still + 1 : 0;
            last = now;
        }
        return clock.getAsLong() - start;
    }

    /** The compiler threads' run time added up, or empty if there are none or the kernel does not say. */
    static OptionalLong runNs(Path tasks) {
        long sum = 0;
        boolean any = false;
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
            for (Path t : threads) {
                if (!isCompiler(t)) continue;
                OptionalLong ns = schedstatRunNs(t);
                if (ns.isEmpty()) return ns;
                sum += ns.getAsLong();
                any = true;
            }
        } catch (IOException | DirectoryIteratorException e) { // a look that failed waits no longer
            return OptionalLong.empty();
        }
        return any ? OptionalLong.of(sum) : OptionalLong.empty();
    }

    /** HotSpot names its JIT threads "C1 CompilerThread0" and so on (the kernel keeps 15 characters). */
    private static boolean isCompiler(Path thread) {
        try {
            String comm = Files.readString(thread.resolve("comm"));
            return comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre");
        } catch (IOException e) {
            return false; // a thread that ended meanwhile
        }
    }

    /** The first field of schedstat: the thread's time on a CPU, in ns. */
    static OptionalLong schedstatRunNs(Path thread) {
        try {
            String s = Files.readString(thread.resolve("schedstat")).trim();
            int space = s.indexOf(' ');
            return OptionalLong.of(Long.parseLong(space < 0 ? s : s.substring(0, space)));
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
