package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.ompprof.sampler.record.ParallelBegin;
import org.ompprof.sampler.record.ParallelEnd;
import org.ompprof.sampler.record.SampleRecord;
import org.ompprof.sampler.record.ThreadBegin;

/**
 * regions.c, recorded with two threads: the paths of working, idle, barrier-waiting and
 * lock-waiting threads. Samples are selected by what the agent recorded (state, thread, time
 * between the region records), never by what the stitcher made of them.
 */
class RegionsStitchTest {
    private static final int WORK_PARALLEL = 0x1, BARRIER_EXPLICIT = 0x14, WAIT_LOCK = 0x41;
    private static final long MARGIN_NS = 5_000_000;

    static Stitched run;
    /** compute, imbalance, contend: the program's three regions in order. */
    static List<ParallelBegin> begins;

    static List<ParallelEnd> ends;
    static int initialThread;

    @BeforeAll
    static void record() {
        run = Stitched.of(StitchPrograms.recording("regions", Map.of()));
        begins = run.events(ParallelBegin.class).stream()
                .sorted(java.util.Comparator.comparingLong(ParallelBegin::timeNs))
                .toList();
        ends = run.events(ParallelEnd.class).stream()
                .sorted(java.util.Comparator.comparingLong(ParallelEnd::timeNs))
                .toList();
        initialThread = run.events(ThreadBegin.class).stream()
                .filter(t -> t.threadType() == 1)
                .findFirst()
                .orElseThrow()
                .threadSeq();
        assertEquals(3, begins.size(), "regions");
    }

    private static boolean during(SampleRecord s, int region) {
        return s.timeNs() > begins.get(region).timeNs()
                && s.timeNs() < ends.get(region).timeNs();
    }

    /** (a) Both threads' work in main -> compute -> parallel -> work, with no runtime frame. */
    @Test
    void workersAreUnderTheRegionsCreator() {
        List<Stitched.Pair> work = run.select(s -> s.state() == WORK_PARALLEL && during(s, 0));
        Expect.mostly(
                "work in compute's region",
                work,
                100,
                n -> n.sample().kind() == StitchedSample.Kind.EXACT
                        && n.userNames().equals(List.of("main", "compute", "compute.omp_outlined", "work"))
                        && !n.anyRuntimeFrame());
        assertEquals(2, work.stream().map(p -> p.raw().threadSeq()).distinct().count(), "both threads");
    }

    /** (e) The thread that waits at region_fn's barrier ends at the call region_fn made. */
    @Test
    void barrierWaitEndsAtTheUserCallSite() {
        List<Stitched.Pair> waiting = run.select(s -> s.state() == BARRIER_EXPLICIT);
        // 0.25 s of waiting, but a thread asleep in the barrier is signalled late on a loaded machine (its samples
        // then weigh the timer's overruns): about 110 samples at a load of 3 on two cores, with or without the walk
        Expect.mostly(
                "explicit barrier wait",
                waiting,
                50,
                n -> n.sample().kind() == StitchedSample.Kind.EXACT
                        && n.names()
                                .equals(List.of(
                                        "main", "imbalance", "imbalance.omp_outlined", "region_fn", "__kmpc_barrier")));
    }

    /** A lock wait ends at omp_set_lock, which sets no OMPT enter frame: the runtime's internals are cut by module. */
    @Test
    void lockWaitEndsAtOmpSetLock() {
        List<Stitched.Pair> waiting = run.select(s -> s.state() == WAIT_LOCK);
        Expect.mostly(
                "lock wait",
                waiting,
                20,
                n -> n.sample().kind() == StitchedSample.Kind.EXACT
                        && n.names()
                                .equals(List.of("main", "contend", "contend.omp_outlined", "locked", "omp_set_lock")));
    }

    /** (f) Between the regions the worker is idle, while the initial thread's serial code keeps its path from main. */
    @Test
    void idleBetweenRegions() {
        long from = ends.get(0).timeNs() + MARGIN_NS, to = begins.get(1).timeNs() - MARGIN_NS;
        List<Stitched.Pair> worker =
                run.select(s -> s.threadSeq() != initialThread && s.timeNs() > from && s.timeNs() < to);
        Expect.mostly(
                "worker between regions",
                worker,
                50,
                n -> n.sample().kind() == StitchedSample.Kind.IDLE && n.names().equals(List.of("<omp idle>")));
        List<Stitched.Pair> serial =
                run.select(s -> s.threadSeq() == initialThread && s.timeNs() > from && s.timeNs() < to);
        Expect.mostly(
                "serial code between regions",
                serial,
                50,
                n -> n.sample().kind() == StitchedSample.Kind.EXACT
                        && n.userNames().equals(List.of("main", "serial_work", "work")));
    }

    /** No sample is left out of the counts, and every OMPT frame address matched an unwound frame exactly. */
    @Test
    void countersAddUp() {
        Expect.consistent(run);
        StitchCounters c = run.counters();
        assertEquals(3, c.regions());
        assertEquals(0, c.unknownContexts(), c.toString());
        assertTrue(c.samples(StitchedSample.Kind.IDLE) > 0 && c.samples(StitchedSample.Kind.EXACT) > 0, c.toString());
    }
}
