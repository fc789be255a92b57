package org.ompprof.unwinder.stitch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.eclipse.collections.impl.map.mutable.primitive.LongIntHashMap;
import org.ompprof.sampler.record.SampleRecord;
import org.ompprof.sampler.record.WireRecord;
import org.ompprof.sampler.recording.KeptRecords;
import org.ompprof.sampler.recording.ReadAhead;
import org.ompprof.sampler.recording.RecordBatch;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.wire.Wire;
import org.ompprof.unwinder.clock.Stage;
import org.ompprof.unwinder.clock.StageClock;
import org.ompprof.unwinder.image.ModuleImages;
import org.ompprof.unwinder.stack.Module;
import org.ompprof.unwinder.stack.StackUnwinder;

/**
 * The call-path stage for one recording: every sample's full calling context, with the
 * OpenMP runtime's frames removed and each thread's frames stitched under the context that
 * created its parallel region or task (see the package documentation for the rules).
 *
 * <p>{@link #of} reads the recording's callback records once and unwinds every region's and
 * task's creation context; {@link #samples()} then unwinds and stitches samples as they are
 * consumed. The samples' stream is consumed by one thread at a time; while it is, other threads
 * may ask for contexts and counters (the contexts resolved so far are guarded by their resolver's
 * lock, the rest by the stitcher's). {@link #samplesInTimeOrder()} stitches each record section
 * on the thread that decodes it, with a stitcher of that thread's own.
 *
 * <pre>{@code
 * try (Recording r = Recording.open(path)) {
 *     Stitcher st = Stitcher.of(r);
 *     st.samples().forEach(s -> tree.add(s.pathRootFirst(), s.weightNs()));
 *     StitchCounters c = st.counters();
 * }
 * }</pre>
 */
public final class Stitcher {
    /** Sample bytes kept from the index for the samples' read: a run's first few minutes (many_regions: 8 MB). */
    private static final long KEPT_SAMPLE_BYTES = 64L << 20;

    private final Recording recording;
    private final RecordingModules modules;
    private final StitchCounters.Tally tally = new StitchCounters.Tally();
    private final SampleStitcher samples;
    private final Interner interner = new Interner();
    private final ContextResolver contexts;
    private final Creations creations;
    private final StageClock clock;

    /** A thread's stitcher for the samples in time order, and its counts. */
    private record Worker(SampleStitcher stitcher, StitchCounters.Tally tally) {}

    /** The stitchers of the threads that stitched sections ({@link #stitchSection}). */
    private final Map<Thread, Worker> workers = new ConcurrentHashMap<>();

    private final ReadAhead ahead;
    /**
     * The samples of the sections the index inflates, kept for {@link #samplesInTimeOrder()}, which then need not
     * inflate them again (they share the sections with the callback records).
     */
    private final KeptRecords keptSamples;

    private Stitcher(
            Recording recording,
            ModuleImages images,
            StageClock clock,
            ReadAhead ahead,
            long keptBytes,
            Consumer<List<Module>> commonlyNamed) {
        this.recording = recording;
        this.clock = clock;
        this.ahead = ahead;
        this.keptSamples = KeptRecords.of(type -> type == Wire.REC_SAMPLE, keptBytes);
        // with threads to decode on, they first share the loading of the images, then decode the first sections
        // while this thread finishes the images
        if (ahead.isParallel()) RecordingModules.loadAhead(recording, images, ahead.pool());
        Iterator<RecordBatch> callbacks =
                recording.recordBatches(Recording.ALL_THREADS, Creations::reads, ahead, keptSamples);
        Stage was = clock.enter(Stage.UNWIND); // the images and their CFI
        this.modules = new RecordingModules(recording, images);
        commonlyNamed.accept(modules.commonlyNamed());
        clock.enter(Stage.STITCH);
        ContextUnwinder unwinder = new ContextUnwinder(new StackUnwinder(modules.space()), clock);
        SegmentMaker segments = new SegmentMaker(modules, unwinder, interner, tally);
        Creations creations = new Creations(segments);
        new TimedSections<RecordBatch, WireRecord>(
                        callbacks,
                        section -> {
                            // every callback record is read here, if not decoded
                            clock.count(Stage.DECODE, section.count(type -> type != Wire.REC_SAMPLE));
                            return section.records().iterator();
                        },
                        clock)
                .forEachRemaining(creations::add);
        creations.finish();
        clock.enter(was);
        tally.regions = creations.regions.size();
        tally.tasks = creations.tasks.size();
        this.contexts = new ContextResolver(creations, interner, tally, this::siteCode);
        this.creations = creations;
        this.samples = stitcher(tally);
    }

    /** Indexes the recording's regions and tasks; images are loaded for this recording alone. */
    public static Stitcher of(Recording recording) {
        return new Stitcher(recording, new ModuleImages(), StageClock.off(), ReadAhead.NONE, 0, m -> {});
    }

    /** As {@link #of(Recording)}, sharing parsed images (and their CFI caches) with other users of {@code images}. */
    public static Stitcher of(Recording recording, ModuleImages images) {
        return new Stitcher(recording, images, StageClock.off(), ReadAhead.NONE, 0, m -> {});
    }

    /**
     * As {@link #of(Recording, ModuleImages)}, accounting the time spent here and in the samples'
     * streams to {@code clock}'s decode, unwind and stitch stages.
     */
    public static Stitcher of(Recording recording, ModuleImages images, StageClock clock) {
        return new Stitcher(recording, images, clock, ReadAhead.NONE, 0, m -> {});
    }

    /**
     * As {@link #of(Recording, ModuleImages, StageClock)}, the recording's sections inflated and
     * decoded as {@code ahead} says, here and in {@link #samplesInTimeOrder()}: what is stitched is
     * the same, in the same order, on one thread or several. For a profile build, which reads the
     * samples in time order once: the index keeps samples for that read (up to 64 MiB, held until it). Once the
     * recording's modules are loaded, before the index is built, {@code commonlyNamed} is told the modules nearly
     * every profile names (the program and the C library), for a symbolizer to load meanwhile.
     */
    public static Stitcher of(
            Recording recording,
            ModuleImages images,
            StageClock clock,
            ReadAhead ahead,
            Consumer<List<Module>> commonlyNamed) {
        return new Stitcher(recording, images, clock, ahead, KEPT_SAMPLE_BYTES, commonlyNamed);
    }

    /**
     * Every sample, stitched, thread by thread in time order (the recording's order). Lazy:
     * samples are unwound as the stream is consumed. Each call stitches anew and adds to
     * {@link #counters()}.
     */
    public Stream<StitchedSample> samples() {
        return recording.records(type -> type == Wire.REC_SAMPLE).map(r -> stitchUntimed((SampleRecord) r));
    }

    /**
     * As {@link #samples()}, all threads' samples merged into one stream in time order, reading
     * every thread's records side by side (one chunk of each at a time): for stages that look
     * across threads at one moment and must not hold the whole run. With threads to decode on
     * ({@link ReadAhead}), a section's samples are stitched where it is decoded, ahead and in
     * parallel: the samples are the same on any number of threads. An iterator, not a stream: a build takes
     * millions of samples from it, and a stream's adapters cost a tenth of what merging them costs.
     */
    public Iterator<StitchedSample> samplesInTimeOrder() {
        List<Iterator<StitchedSample>> threads = new ArrayList<>();
        List<Integer> seqs = recording.recordThreads();
        ReadAhead each = ahead.split(seqs.size());
        for (int thread : seqs) {
            threads.add(new TimedSections<List<StitchedSample>, StitchedSample>(
                    recording.keptBatches(Integer.toUnsignedLong(thread), keptSamples, each, this::stitchSection),
                    List::iterator,
                    clock));
        }
        return new TimeOrder<>(threads, StitchedSample::timeNs);
    }

    /** One sample, by this stitcher's own (tests: a sample made by hand against a real recording's index). */
    synchronized StitchedSample stitchUntimed(SampleRecord r) {
        return samples.stitch(r);
    }

    /**
     * A section's samples, stitched on the thread that decoded it by that thread's own stitcher: a sample's path
     * depends on the index alone, so sections are stitched in parallel, in any order, to the same paths.
     */
    private List<StitchedSample> stitchSection(RecordBatch section) {
        clock.count(Stage.DECODE, section.count(type -> type == Wire.REC_SAMPLE));
        SampleStitcher own =
                workers.computeIfAbsent(Thread.currentThread(), t -> worker()).stitcher();
        Stage was = clock.enter(Stage.STITCH);
        try {
            List<StitchedSample> out = new ArrayList<>(section.records().size());
            for (WireRecord r : section.records()) out.add(own.stitch((SampleRecord) r));
            clock.count(Stage.STITCH, out.size());
            return out;
        } finally {
            clock.enter(was);
        }
    }

    /** A stitcher for one thread, with counts of its own. */
    private Worker worker() {
        StitchCounters.Tally own = new StitchCounters.Tally();
        return new Worker(stitcher(own), own);
    }

    /**
     * A stitcher of samples counting into {@code counts}: its own unwinder (which holds the unwind's state), the index
     * and its contexts shared.
     */
    private SampleStitcher stitcher(StitchCounters.Tally counts) {
        ContextUnwinder unwinder = new ContextUnwinder(new StackUnwinder(modules.space()), clock);
        SegmentMaker segments = new SegmentMaker(modules, unwinder, interner, counts);
        return new SampleStitcher(modules, unwinder, segments, creations, contexts, counts);
    }

    /**
     * The calling context that created a parallel region, root first, ending in the user's
     * function that opened it; {@code <unknown context>} if its creation was not recorded, empty
     * for the program's implicit outermost region.
     */
    public synchronized List<PathFrame> regionContext(long regionId) {
        return contexts.ofRegion(regionId).path();
    }

    /**
     * How many parallel regions were opened at each {@link RegionSite} (every region whose creation was recorded,
     * sampled or not).
     */
    public synchronized Map<RegionSite, Integer> regionCountsBySite() {
        Map<ContextNode, LongIntHashMap> byNode =
                new IdentityHashMap<>(); // contexts are interned: one node per distinct context
        ContextNode[] last = {null};
        LongIntHashMap[] lastCounts = {null};
        contexts.forEachRecordedRegion((id, node) -> {
            if (node != last[0]) {
                last[0] = node;
                lastCounts[0] = byNode.computeIfAbsent(node, c -> new LongIntHashMap());
            }
            lastCounts[0].addToValue(creations.regionCallSite.getIfAbsent(id, 0), 1);
        });
        Map<RegionSite, Integer> out = new HashMap<>();
        byNode.forEach((node, counts) ->
                counts.forEachKeyValue((site, n) -> out.merge(new RegionSite(node.path(), site), n, Integer::sum)));
        return out;
    }

    /**
     * The calling context that launched a target construct (by the agent's target id), root
     * first, ending in the user's function that contains the construct; {@code <unknown
     * context>} if its begin was not recorded.
     */
    public synchronized List<PathFrame> targetContext(long targetId) {
        return contexts.ofTarget(targetId).path();
    }

    /**
     * The calling context in which {@code thread} released the mutex hold that ended at {@code releaseNs}, root
     * first, ending in the user's frame that released it (the line of the release); empty if the agent sent none
     * (it sends one for every hold it writes at the release).
     */
    public synchronized Optional<List<PathFrame>> releaseSite(int thread, long releaseNs) {
        ContextNode c = contexts.ofReleaseSite(thread, releaseNs);
        return c == null ? Optional.empty() : Optional.of(c.path());
    }

    /**
     * The user's call that opened the region, as {@link RegionSite} keeps it: its codeptr_ra (a return address: its
     * line is the construct's; {@link #callSite} makes it a path element), 0 if unknown.
     */
    public long regionCallSiteAddress(long regionId) {
        return creations.regionCallSite.getIfAbsent(regionId, 0);
    }

    /**
     * A return address in the program's code (an OMPT codeptr_ra) as a path element, for naming its line; empty if in
     * no module.
     */
    public Optional<PathFrame> callSite(long returnAddress) {
        Module m = returnAddress == 0 ? null : modules.space().find(returnAddress);
        if (m == null) return Optional.empty();
        return Optional.of(modules.toPathFrame(new org.ompprof.unwinder.stack.Frame(
                returnAddress, org.ompprof.unwinder.stack.FrameKind.RETURN_ADDRESS, m)));
    }

    private PathFrame.Code siteCode(long returnAddress) {
        return callSite(returnAddress).orElse(null) instanceof PathFrame.Code c ? c : null;
    }

    /** How many threads have stitched sections of {@link #samplesInTimeOrder()} so far, each with its own stitcher. */
    int stitchingThreads() {
        return workers.size();
    }

    /** Counts so far: the index's from {@link #of}, the samples' from what {@link #samples()} produced. */
    public synchronized StitchCounters counters() {
        StitchCounters.Tally all = new StitchCounters.Tally();
        all.add(tally);
        for (Worker w : workers.values()) all.add(w.tally());
        all.distinctContexts = contexts.distinctContexts();
        all.foldedContexts = contexts.foldedContexts();
        return all.snapshot();
    }

    /**
     * Whether a recorded module is the OpenMP runtime or the agent, by the same test the elision
     * uses (false for a module whose image was not available).
     */
    public boolean isRuntime(long moduleId) {
        return modules.isRuntime(moduleId);
    }

    /**
     * The loaded module a {@link PathFrame.Code} refers to, for symbolization; empty if its image was not available.
     */
    public Optional<Module> module(long moduleId) {
        return Optional.ofNullable(modules.module(moduleId));
    }
}
