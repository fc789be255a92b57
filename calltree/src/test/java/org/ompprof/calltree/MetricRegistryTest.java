package org.ompprof.calltree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.ompprof.sampler.omp.OmpState;

class MetricRegistryTest {
    @Test
    void standardMetricsSitAtFixedIndicesWithTheirUnits() {
        MetricRegistry r = MetricRegistry.standard();
        assertEquals("samples", r.metric(StandardMetrics.SAMPLES).name());
        assertEquals(MetricUnit.COUNT, r.metric(StandardMetrics.SAMPLES).unit());
        assertEquals("time", r.metric(StandardMetrics.TIME).name());
        assertEquals(MetricUnit.NANOSECONDS, r.metric(StandardMetrics.TIME).unit());
        for (String name : List.of(
                "time.work_serial",
                "time.work_parallel",
                "time.work_reduction",
                "time.barrier",
                "time.barrier.implicit_parallel",
                "time.barrier.implicit_workshare",
                "time.barrier.explicit",
                "time.barrier.implementation",
                "time.barrier.teams",
                "time.taskwait",
                "time.taskgroup",
                "time.task_scheduling",
                "time.lock",
                "time.critical",
                "time.atomic",
                "time.ordered",
                "time.mutex",
                "time.target",
                "time.idle",
                "time.overhead",
                "time.undefined")) {
            Metric m = r.require(name);
            assertEquals(MetricUnit.NANOSECONDS, m.unit(), name);
            String parent = name.startsWith("time.barrier.") ? "time.barrier" : "time";
            assertEquals(parent, r.metric(m.parent()).name(), name);
        }
    }

    @Test
    void everyOmptStateCodeMapsToItsMetric() {
        int[][] codes = {
            {0x000}, {0x001}, {0x002}, {0x010}, {0x011}, {0x012}, {0x013}, {0x014}, {0x015}, {0x016}, {0x020}, {0x021},
            {0x040}, {0x041}, {0x042}, {0x043}, {0x044}, {0x080}, {0x081}, {0x082}, {0x100}, {0x101}, {0x102}
        };
        String[] names = {
            "work_serial",
            "work_parallel",
            "work_reduction",
            "barrier",
            "barrier.implicit_parallel",
            "barrier.implicit_workshare",
            "barrier.implicit",
            "barrier.explicit",
            "barrier.implementation",
            "barrier.teams",
            "taskwait",
            "taskgroup",
            "mutex",
            "lock",
            "critical",
            "atomic",
            "ordered",
            "target",
            "target",
            "target",
            "idle",
            "overhead",
            "undefined"
        };
        for (int i = 0; i < codes.length; i++) {
            OmpState s = OmpState.of(codes[i][0]);
            assertEquals(codes[i][0], s.code());
            assertEquals("time." + names[i], s.metricName());
        }
        assertSame(OmpState.UNDEFINED, OmpState.of(0x3ff));
        assertEquals("time.barrier", OmpState.WAIT_BARRIER_TEAMS.groupMetricName());
        assertEquals(null, OmpState.WAIT_BARRIER.groupMetricName());
        assertSame(OmpState.TASK_SCHEDULING, OmpState.of(OmpState.TASK_SCHEDULING.code()));
        assertEquals("time.task_scheduling", OmpState.TASK_SCHEDULING.metricName());
    }

    @Test
    void registeringIsIdempotentAndConflictsFail() {
        MetricRegistry r = MetricRegistry.standard();
        int size = r.size();
        Metric blame = r.register("barrier_blame", MetricUnit.NANOSECONDS, "x", MetricStorage.SPARSE, null);
        assertEquals(size, blame.index());
        assertSame(blame, r.register("barrier_blame", MetricUnit.NANOSECONDS, "x", MetricStorage.SPARSE, null));
        assertThrows(
                IllegalArgumentException.class,
                () -> r.register("barrier_blame", MetricUnit.COUNT, "x", MetricStorage.SPARSE, null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.require("nope"));
        assertTrue(e.getMessage().contains("samples"));
    }

    @Test
    void importAllMatchesByName() {
        MetricRegistry a = new MetricRegistry();
        a.register("mutex_blame", MetricUnit.NANOSECONDS, "", MetricStorage.SPARSE, null);
        StandardMetrics.registerInto(a);
        MetricRegistry b = MetricRegistry.standard();
        int[] map = b.importAll(a);
        assertEquals(b.require("mutex_blame").index(), map[0]);
        assertEquals(StandardMetrics.SAMPLES, map[a.require("samples").index()]);
    }
}
