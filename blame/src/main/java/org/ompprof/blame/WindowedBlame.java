package org.ompprof.blame;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.collections.api.set.primitive.IntSet;
import org.ompprof.sampler.omp.WaitClass;

/**
 * Blame for a run of any length in bounded memory: samples come in time order (all threads
 * merged) and are charged window by window. Time is cut into windows of {@code windowNs}; a
 * window is charged once the one after it is complete, looking at the samples of the window
 * before, its own and the one after. Every look-up of another thread's work at that moment
 * (within two sample weights) or of a mutex holder's samples thus sees what it would see in
 * the whole run, unless it reaches further than one window away (a hold or a gap between
 * samples longer than the window), where it sees the edge of the three windows instead.
 * Memory is three windows of samples, not the run.
 */
public final class WindowedBlame {
    /**
     * Long against sample periods and typical holds; short enough that three windows of samples
     * stay small (at 1000 Hz, 6,000 samples a thread, some 250 bytes each while a window is charged).
     */
    public static final long DEFAULT_WINDOW_NS = 2_000_000_000L;

    private record Window(long index, SampleTable.Builder samples) {}

    private final BlameCalculator calculator;
    private final long windowNs;
    /** Uncharged windows and the charged one before them, in time order. */
    private final List<Window> windows = new ArrayList<>();
    /** Windows before this index are charged. */
    private long charged = Long.MIN_VALUE;

    private boolean finished;

    public WindowedBlame(MutexHolds holds, IntSet initialThreads, long windowNs) {
        this(holds, ReleaseSites.NONE, initialThreads, windowNs);
    }

    /** As {@link #WindowedBlame(MutexHolds, IntSet, long)}, with where the holds were released. */
    public WindowedBlame(MutexHolds holds, ReleaseSites sites, IntSet initialThreads, long windowNs) {
        if (windowNs <= 0) throw new IllegalArgumentException("window of " + windowNs + " ns");
        this.calculator = new BlameCalculator(holds, sites, initialThreads);
        this.windowNs = windowNs;
    }

    /** One sample (see {@link SampleTable.Builder#add}), no earlier than the window before the newest sample's. */
    public void add(int threadSeq, long timeNs, long weightNs, WaitClass c, long waitId, long regionId, int node) {
        if (finished) throw new IllegalStateException("blame already finished");
        long index = Math.floorDiv(timeNs, windowNs);
        if (index < charged)
            throw new IllegalArgumentException(
                    "sample at " + timeNs + " ns after its window was charged: not in time order");
        window(index).samples().add(threadSeq, timeNs, weightNs, c, waitId, regionId, node);
        for (Window first = firstUncharged(); first != null && index >= first.index() + 2; first = firstUncharged())
            chargeNext();
    }

    /** Samples gathered elsewhere, in the order they were added there: as {@link #add} of each. */
    public void addAll(SampleTable.Builder samples) {
        samples.addTo(this);
    }

    /** Charges what is left and returns all charges. */
    public Charges finish() {
        chargeRest();
        return calculator.result();
    }

    /**
     * Charges what is left: no sample may follow. Apart from {@link #finish()} for a caller whose thread may not make
     * the result (the release sites' nodes are made there, see {@link ReleaseSites#resolve}).
     */
    public void chargeRest() {
        if (finished) return;
        while (firstUncharged() != null) chargeNext();
        finished = true;
    }

    private Window window(long index) {
        for (int i = windows.size() - 1; i >= 0; i--) {
            Window w = windows.get(i);
            if (w.index() == index) return w;
            if (w.index() < index) {
                Window made = new Window(
                        index,
                        new SampleTable.Builder(Math.max(1024, w.samples().size()))); // as many, likely
                windows.add(i + 1, made);
                return made;
            }
        }
        Window made = new Window(index, new SampleTable.Builder());
        windows.addFirst(made);
        return made;
    }

    private Window firstUncharged() { // by index: called per sample, where an iterator is garbage for the build's GC
        for (int i = 0; i < windows.size(); i++) if (windows.get(i).index() >= charged) return windows.get(i);
        return null;
    }

    /** Charges the first uncharged window with its neighbours in view, then forgets what no later window needs. */
    private void chargeNext() {
        Window w = firstUncharged();
        List<SampleTable.Builder> near = new ArrayList<>(3);
        for (Window other : windows) if (Math.abs(other.index() - w.index()) <= 1) near.add(other.samples());
        // made at its size at once: grown by doubling, it was a tenth of a wide run's build allocation
        SampleTable.Builder view = SampleTable.Builder.joined(near);
        long from = w.index() * windowNs;
        calculator.charge(view.build(), from, from + windowNs);
        charged = w.index() + 1;
        windows.removeIf(other -> other.index() < w.index());
    }
}
