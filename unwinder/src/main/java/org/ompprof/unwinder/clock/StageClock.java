package org.ompprof.unwinder.clock;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Accounts the time of one thread's profile build to its {@link Stage}s: exactly one stage runs
 * at a time, and {@link #enter} closes the running stretch (one {@code System.nanoTime()} a
 * switch), so the stages' times add up to the time the clock ran. Stages nest by saving what
 * {@code enter} returns and entering it again afterwards:
 *
 * <pre>{@code
 * Stage was = clock.enter(Stage.UNWIND);
 * try { ... } finally { clock.enter(was); }
 * }</pre>
 *
 * {@link #off()} is a clock that measures nothing (for callers that do not ask). Its time is the
 * thread's that started it: from other threads (work done ahead for it) {@link #enter} changes
 * nothing, while the items they {@link #count} are added.
 */
public final class StageClock {
    private static final Stage[] STAGES = Stage.values();

    private final boolean on;
    private final long[] ns = new long[STAGES.length];
    private final long[] items = new long[STAGES.length];
    private final AtomicLongArray itemsElsewhere = new AtomicLongArray(STAGES.length);
    private final Thread owner = Thread.currentThread();
    private Stage current;
    private long since;
    private final long started;
    private long stopped = -1;

    private StageClock(boolean on, Stage first) {
        this.on = on;
        this.current = first;
        this.started = on ? System.nanoTime() : 0;
        this.since = started;
    }

    /** A running clock, in stage {@code first}. */
    public static StageClock start(Stage first) {
        return new StageClock(true, first);
    }

    /** A clock that keeps nothing. */
    public static StageClock off() {
        return new StageClock(false, Stage.AGGREGATE);
    }

    /** Switches to {@code stage}; returns the stage that was running (to enter again when done). */
    public Stage enter(Stage stage) {
        if (!on || Thread.currentThread() != owner) return stage;
        long now = System.nanoTime();
        ns[current.ordinal()] += now - since;
        since = now;
        Stage was = current;
        current = stage;
        return was;
    }

    /** Counts {@code n} items of work done by {@code stage}. */
    public void count(Stage stage, long n) {
        if (!on) return;
        if (Thread.currentThread() == owner) items[stage.ordinal()] += n;
        else itemsElsewhere.addAndGet(stage.ordinal(), n);
    }

    /** Stops the clock (closing the running stretch); later calls change nothing. */
    public void stop() {
        if (!on || stopped >= 0) return;
        enter(current);
        stopped = since;
    }

    /** The time accounted to {@code stage} so far (up to the last switch). */
    public long ns(Stage stage) {
        return ns[stage.ordinal()];
    }

    public long items(Stage stage) {
        return items[stage.ordinal()] + itemsElsewhere.get(stage.ordinal());
    }

    /** The clock's own wall time: from its start to its stop (or now). */
    public long wallNs() {
        if (!on) return 0;
        return (stopped >= 0 ? stopped : System.nanoTime()) - started;
    }

    public boolean isOn() {
        return on;
    }
}
