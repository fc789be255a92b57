package org.ompprof.calltree.build;

import java.util.List;
import java.util.concurrent.ExecutorService;
import org.ompprof.unwinder.clock.Stage;
import org.ompprof.unwinder.clock.StageClock;
import org.ompprof.unwinder.image.ModuleImages;
import org.ompprof.unwinder.stack.Module;
import org.ompprof.unwinder.symbols.Symbolizer;

/**
 * The build's llvm-symbolizer, started on another thread while the recording is indexed: starting
 * it finds the tool, starts its process and, for one whose version its name does not tell, asks
 * {@code --help} for its flags (tens of milliseconds, longer in a cold JVM), which nothing before
 * the first sample needs. The building thread takes it once the index is built; what the build
 * waits for then counts as symbolizing. On one thread it starts at once, as before the index.
 * Closing stops the process (waiting for a start under way) if this started it.
 */
final class SymbolizerAhead implements AutoCloseable {
    private final Later<Symbolizer> symbolizer;
    private final ExecutorService thread;
    private final boolean owned;

    private SymbolizerAhead(Later<Symbolizer> symbolizer, ExecutorService thread, boolean owned) {
        this.symbolizer = symbolizer;
        this.thread = thread;
        this.owned = owned;
    }

    /**
     * Starts one for {@code images} on {@code thread}, or, if that is null, here and now (the time going to {@code
     * clock}'s symbolize stage): the process then starts up while the recording is indexed all the same.
     */
    static SymbolizerAhead start(ModuleImages images, ExecutorService thread, StageClock clock) {
        if (thread != null)
            return new SymbolizerAhead(Later.start(thread, () -> Symbolizer.create(images)), thread, true);
        Stage was = clock.enter(Stage.SYMBOLIZE);
        try {
            Symbolizer started = Symbolizer.create(images);
            return new SymbolizerAhead(Later.start(null, () -> started), null, true);
        } finally {
            clock.enter(was);
        }
    }

    /** One started by the caller, who closes it. */
    static SymbolizerAhead of(Symbolizer started) {
        return new SymbolizerAhead(Later.start(null, () -> started), null, false);
    }

    /**
     * Has the symbolizer load {@code modules} ahead ({@link Symbolizer#loadAhead}) once it is started, on its thread
     * (which starts it first), or here if it has none: while the recording is indexed, llvm-symbolizer reads their
     * debug info in its own process, and the first samples' names do not wait for it.
     */
    void loadAhead(List<Module> modules) {
        Runnable load = () -> {
            try {
                Symbolizer s = symbolizer.get();
                modules.forEach(s::loadAhead);
            } catch (RuntimeException e) {
                // not started: the build meets the failure where it takes the symbolizer
            }
        };
        if (thread == null) load.run();
        else thread.execute(load);
    }

    /** The symbolizer, once started; the time waited for it goes to {@code clock}'s symbolize stage. */
    Symbolizer get(StageClock clock) {
        Stage was = clock.enter(Stage.SYMBOLIZE);
        try {
            return symbolizer.get();
        } finally {
            clock.enter(was);
        }
    }

    @Override
    public void close() {
        if (!owned) return;
        Symbolizer s;
        try {
            s = symbolizer.get(); // a start under way is waited for, so that no llvm-symbolizer outlives the build
        } catch (RuntimeException e) {
            return; // nothing started; the failure was thrown where the build took the symbolizer
        }
        s.close();
    }
}
