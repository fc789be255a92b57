package org.ompprof.unwinder.clock;

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
 * {@link #off()} is a clock that measures nothing (for callers that do not ask). Not thread-safe:
 * one per building thread.
 */
public final class StageClock {
    private static final Stage[] STAGES = Stage.values();

    private final boolean on;
    private final long[] ns = new long[STAGES.length];
    private final long[] items = new long[STAGES.length];
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
        if (!on) return stage;
        long now = System.nanoTime();
        ns[current.ordinal()] += now - since;
        since = now;
        Stage was = current;
        current = stage;
        return was;
    }

    /** Counts {@code n} items of work done by {@code stage}. */
    public void count(Stage stage, long n) {
        if (on) items[stage.ordinal()] += n;
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
        return items[stage.ordinal()];
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
