package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import org.eclipse.collections.impl.map.mutable.primitive.LongObjectHashMap;
import org.junit.jupiter.api.Test;
import org.ompprof.sampler.record.TaskLevel;

/** Context resolution on a hand-made index: nesting, interning, lost records and damaged chains. */
class ContextResolverTest {
    private static final int INITIAL = 1, IMPLICIT = 2, EXPLICIT = 4;
    private static final PathFrame MAIN = code(0x10),
            COMPUTE = code(0x20),
            OUTLINED = code(0x30),
            PRODUCER = code(0x40),
            CONSTRUCT = new PathFrame.Construct(site(0x25));

    private final StitchCounters.Tally tally = new StitchCounters.Tally();
    private final Interner interner = new Interner();
    private final Creations index = new Creations(null);
    /** Call sites in the program's module: every one is code. */
    private final ContextResolver resolver = new ContextResolver(index, interner, tally, ContextResolverTest::site);

    private static PathFrame code(long pc) {
        return new PathFrame.Code(1, "/bin/prog", pc, true);
    }

    private static PathFrame.Code site(long returnAddress) {
        return new PathFrame.Code(1, "/bin/prog", returnAddress, true);
    }

    private static Segment segment(PathFrame... frames) {
        return new Segment(List.of(frames), Gap.NONE);
    }

    private static TaskLevel level(long taskId, long parallelId, int flags) {
        return new TaskLevel(0x1000, 0, 0, 0, flags, 0, taskId, parallelId, 2);
    }

    /**
     * Initial task 1 in region 1 creates region 2 from main;compute; implicit task 3 of region 2 creates tasks 10 and
     * 11.
     */
    private void program() {
        index.initialTasks.add(1);
        index.initialRegions.add(1);
        index.regions.put(2, new Creations.Origin(1, interner.segment(segment(MAIN, COMPUTE))));
        index.regionCallSite.put(2, 0x25);
        index.regionOfImplicitTask.put(3, 2);
        index.tasks.put(10, 3, index.tasks.index(interner.segment(segment(OUTLINED, PRODUCER))));
        index.tasks.put(11, 3, index.tasks.index(interner.segment(segment(OUTLINED, PRODUCER))));
    }

    @Test
    void explicitTasksAreUnderTheirCreatorsRegion() {
        program();
        ContextNode a = resolver.ofTask(level(10, 2, EXPLICIT));
        assertEquals(List.of(MAIN, COMPUTE, CONSTRUCT, OUTLINED, PRODUCER), a.path());
        assertSame(a, resolver.ofTask(level(11, 2, EXPLICIT)), "same creation path, same context");
        assertEquals(
                List.of(MAIN, COMPUTE, CONSTRUCT),
                resolver.ofTask(level(3, 2, IMPLICIT)).path());
        assertEquals(List.of(), resolver.ofTask(level(1, 1, INITIAL)).path());
    }

    /**
     * Implicit task 3 of region 2 opens region 12 from outlined;inner: its implicit task 13 is under both. With no
     * explicit task in the index (the walk's bound counts each region's steps).
     */
    @Test
    void nestedRegionsAreUnderBothConstructs() {
        index.initialTasks.add(1);
        index.initialRegions.add(1);
        index.regions.put(2, new Creations.Origin(1, interner.segment(segment(MAIN, COMPUTE))));
        index.regionCallSite.put(2, 0x25);
        index.regionOfImplicitTask.put(3, 2);
        index.regions.put(12, new Creations.Origin(3, interner.segment(segment(OUTLINED, PRODUCER))));
        index.regionCallSite.put(12, 0x45);
        index.regionOfImplicitTask.put(13, 12);
        assertEquals(
                List.of(MAIN, COMPUTE, CONSTRUCT, OUTLINED, PRODUCER, new PathFrame.Construct(site(0x45))),
                resolver.ofTask(level(13, 12, IMPLICIT)).path());
        assertEquals(
                List.of(MAIN, COMPUTE, CONSTRUCT, OUTLINED, PRODUCER),
                resolver.ofRegion(12).path());
    }

    /** Where the region was opened has no construct (the region table's context); inside it, each has its own. */
    @Test
    void aRegionsConstructIsInsideItNotWhereItWasOpened() {
        program();
        index.regions.put(4, new Creations.Origin(1, interner.segment(segment(MAIN, COMPUTE))));
        index.regionCallSite.put(4, 0x27);
        index.regionOfImplicitTask.put(5, 4);
        index.regions.put(6, new Creations.Origin(1, interner.segment(segment(MAIN))));
        index.regionOfImplicitTask.put(7, 6); // no call site known: no construct
        assertEquals(List.of(MAIN, COMPUTE), resolver.ofRegion(2).path());
        assertSame(resolver.ofRegion(2), resolver.ofRegion(4), "one opening context");
        assertEquals(
                List.of(MAIN, COMPUTE, new PathFrame.Construct(site(0x27))),
                resolver.ofTask(level(5, 4, IMPLICIT)).path());
        assertEquals(List.of(MAIN), resolver.ofTask(level(7, 6, IMPLICIT)).path());
        index.regions.put(8, new Creations.Origin(1, interner.segment(segment(MAIN, COMPUTE))));
        index.regionCallSite.put(8, 0x25);
        index.regionOfImplicitTask.put(9, 8);
        assertSame(
                resolver.ofTask(level(3, 2, IMPLICIT)),
                resolver.ofTask(level(9, 8, IMPLICIT)),
                "regions opened at one site in one context: one context inside");
    }

    @Test
    void aLostTaskCreationFallsBackToTheNearestKnownAncestor() {
        program();
        ContextNode c = resolver.ofLevels(List.of(level(12, 2, EXPLICIT), level(3, 2, IMPLICIT), level(1, 1, INITIAL)));
        assertEquals(List.of(MAIN, COMPUTE, CONSTRUCT, Placeholder.UNKNOWN_CONTEXT), c.path());
        assertEquals(Gap.UNKNOWN, c.gap());
    }

    /** A hold released in explicit task 10 and one in implicit task 3: each site under its holding task's context. */
    @Test
    void releaseSitesAreUnderTheHoldingTasksContext() {
        program();
        PathFrame releasing = code(0x50);
        LongObjectHashMap<Creations.Origin> sites = new LongObjectHashMap<>();
        sites.put(500, new Creations.Origin(10, interner.segment(segment(releasing))));
        sites.put(600, new Creations.Origin(3, interner.segment(segment(OUTLINED, releasing))));
        index.releaseSites.put(7, sites);
        assertEquals(
                List.of(MAIN, COMPUTE, CONSTRUCT, OUTLINED, PRODUCER, releasing),
                resolver.ofReleaseSite(7, 500).path());
        assertEquals(
                List.of(MAIN, COMPUTE, CONSTRUCT, OUTLINED, releasing),
                resolver.ofReleaseSite(7, 600).path());
        assertEquals(null, resolver.ofReleaseSite(7, 501), "no site sent for that release");
        assertEquals(null, resolver.ofReleaseSite(8, 500), "nor by that thread");
    }

    @Test
    void aLostRegionIsUnknown() {
        program();
        ContextNode c = resolver.ofLevels(List.of(level(5, 9, IMPLICIT), level(1, 1, INITIAL)));
        assertEquals(List.of(Placeholder.UNKNOWN_CONTEXT), c.path());
    }

    @Test
    void aCycleInDamagedDataEnds() {
        index.tasks.put(20, 21, index.tasks.index(segment(PRODUCER)));
        index.tasks.put(21, 20, index.tasks.index(segment(OUTLINED)));
        assertEquals(Gap.UNKNOWN, resolver.ofTask(level(20, 2, EXPLICIT)).gap());
    }

    @Test
    void aTruncatedCreationMarksEveryContextUnderIt() {
        program();
        index.regions.put(
                2,
                new Creations.Origin(
                        1, interner.segment(new Segment(List.of(Placeholder.TRUNCATED, COMPUTE), Gap.TRUNCATED))));
        ContextNode c = resolver.ofTask(level(10, 2, EXPLICIT));
        assertEquals(Gap.TRUNCATED, c.gap());
        assertEquals(List.of(Placeholder.TRUNCATED, COMPUTE, CONSTRUCT, OUTLINED, PRODUCER), c.path());
    }
}
