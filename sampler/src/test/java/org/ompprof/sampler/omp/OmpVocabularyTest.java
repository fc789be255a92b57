package org.ompprof.sampler.omp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Pins the OpenMP vocabulary to the runtime's omp-tools.h: a C program generated from the
 * Java tables prints every enumerator they name, and each value must match; and the meaning of
 * each state and mutex kind (what blame does with it) against a table written out here.
 */
class OmpVocabularyTest {
    static final Path HEADER_DIR = Path.of("/usr/lib/llvm-19/lib/clang/19/include");
    static final Path WORK = Path.of("target", "omp-vocabulary").toAbsolutePath();
    static Map<String, Long> expected;
    static Map<String, Long> actual;

    @BeforeAll
    static void compileAndRun() throws Exception {
        expected = javaValues();
        Files.createDirectories(WORK);
        StringBuilder c = new StringBuilder("#include <stdio.h>\n#include <omp-tools.h>\nint main(void) {\n");
        for (String name : expected.keySet())
            c.append("  printf(\"")
                    .append(name)
                    .append(" %lld\\n\", (long long)")
                    .append(name)
                    .append(");\n");
        c.append("  return 0;\n}\n");
        Path source = Files.writeString(WORK.resolve("vocabulary.c"), c);
        Path binary = WORK.resolve("vocabulary");
        run(List.of(
                "/usr/bin/clang-19",
                "-std=c11",
                "-Wall",
                "-Werror",
                "-I",
                HEADER_DIR.toString(),
                "-o",
                binary.toString(),
                source.toString()));
        actual = new TreeMap<>();
        for (String line : run(List.of(binary.toString())).split("\n")) {
            String[] kv = line.trim().split(" ");
            if (kv.length == 2) actual.put(kv[0], Long.parseLong(kv[1]));
        }
    }

    private static Map<String, Long> javaValues() throws IllegalAccessException {
        Map<String, Long> m = new LinkedHashMap<>();
        // ompprof's own states (task scheduling, MPI) have no enumerator: syntheticStatesAreNoneOfTheHeaders checks
        // them
        for (OmpState s : OmpState.values()) if (s.isOmpt()) m.put("ompt_state_" + lower(s.name()), (long) s.code());
        for (MutexKind k : MutexKind.values()) m.put("ompt_mutex_" + lower(k.name()), (long) k.code());
        for (ThreadType t : ThreadType.values())
            if (t != ThreadType.NONE) m.put("ompt_thread_" + lower(t.name()), (long) t.code());
        for (Field f : TaskFlags.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == int.class)
                m.put("ompt_task_" + lower(f.getName()), Integer.toUnsignedLong(f.getInt(null)));
        }
        return m;
    }

    @Test
    void everyValueIsTheHeadersValue() {
        List<String> wrong = new ArrayList<>();
        expected.forEach((name, value) -> {
            Long v = actual.get(name);
            if (v == null || (v & 0xffffffffL) != value) wrong.add(name + ": java " + value + ", omp-tools.h " + v);
        });
        assertTrue(wrong.isEmpty(), "the vocabulary differs from omp-tools.h:\n" + String.join("\n", wrong));
        assertEquals(expected.size(), actual.size());
    }

    /**
     * The states no runtime reports (task scheduling, the MPI calls) have codes that are none of ompt_state_t's, so
     * that a runtime's state is never read as one of them: the header's enumerators, read from its text (and checked
     * against the compiled values above, so that a change in its layout fails here rather than passing empty).
     */
    @Test
    void syntheticStatesAreNoneOfTheHeadersValues() throws Exception {
        String header = Files.readString(HEADER_DIR.resolve("omp-tools.h"));
        String body =
                header.substring(header.indexOf("typedef enum ompt_state_t {"), header.indexOf("} ompt_state_t;"));
        Map<String, Long> headerStates = new TreeMap<>();
        Matcher m = Pattern.compile("(ompt_state_\\w+)\\s+(?:DEPRECATED_51\\s+)?=\\s*0x([0-9a-fA-F]+)")
                .matcher(body);
        while (m.find()) headerStates.put(m.group(1), Long.parseLong(m.group(2), 16));
        Map<String, Long> compiled = new TreeMap<>(actual);
        compiled.keySet().removeIf(name -> !name.startsWith("ompt_state_"));
        assertEquals(compiled, headerStates, "the header's states, read from its text");
        List<OmpState> synthetic = java.util.Arrays.stream(OmpState.values())
                .filter(s -> !s.isOmpt())
                .toList();
        assertTrue(synthetic.contains(OmpState.TASK_SCHEDULING) && synthetic.contains(OmpState.MPI_OTHER));
        long largest =
                headerStates.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        for (OmpState s : synthetic) {
            assertFalse(headerStates.containsValue((long) s.code()), s + " has a header's value");
            assertTrue(s.code() > largest, s + " lies inside ompt_state_t's range");
            assertEquals(s, OmpState.of(s.code()), s + " is read back from its code");
        }
        assertTrue(OmpState.TASK_SCHEDULING.code() < OmpState.MPI_BASE && !OmpState.TASK_SCHEDULING.isMpi());
        assertEquals("task_scheduling", OmpState.TASK_SCHEDULING.displayName());
        assertEquals("time.task_scheduling", OmpState.TASK_SCHEDULING.metricName());
        assertNull(OmpState.TASK_SCHEDULING.groupMetricName(), "a state of its own, counted in no group");
    }

    /** What each state is to blame, written out: changing any state's class fails here. */
    @Test
    void eachStateHasTheWaitClassBlameNeeds() {
        Map<String, WaitClass> table = new LinkedHashMap<>();
        for (String work : List.of("work_serial", "work_parallel", "work_reduction")) table.put(work, WaitClass.WORK);
        for (String b : List.of(
                "barrier",
                "barrier.implicit_parallel",
                "barrier.implicit_workshare",
                "barrier.implicit",
                "barrier.explicit",
                "barrier.implementation",
                "barrier.teams")) table.put(b, WaitClass.BARRIER);
        for (String m : List.of("mutex", "lock", "critical", "atomic", "ordered")) table.put(m, WaitClass.MUTEX);
        table.put("idle", WaitClass.IDLE);
        for (String o : List.of(
                "taskwait",
                "taskgroup",
                "task_scheduling",
                "target",
                "target.map",
                "target.update",
                "overhead",
                "undefined")) table.put(o, WaitClass.OTHER);
        // MPI waiting is blamed across ranks, not within the team
        for (OmpState s : OmpState.values()) if (s.isMpi()) table.put(s.displayName(), WaitClass.OTHER);
        Map<String, WaitClass> actualClasses = new LinkedHashMap<>();
        for (OmpState s : OmpState.values()) actualClasses.put(s.displayName(), s.waitClass());
        assertEquals(table, actualClasses);
        assertEquals(
                WaitClass.IDLE,
                WaitClass.of(OmpState.WORK_PARALLEL.code(), true),
                "the stitcher's idle overrides the state");
        assertEquals(WaitClass.OTHER, WaitClass.of(0x7777, false), "an unknown state is not blamed");
    }

    /** Each MPI call kind of the wire has its state, named after the kind's constant, counted in time.mpi. */
    @Test
    void mpiStatesFollowTheWiresCallKinds() throws IllegalAccessException {
        int kinds = 0;
        for (Field f : org.ompprof.sampler.wire.Wire.class.getFields()) {
            if (!f.getName().startsWith("MPI_CALL_")) continue;
            String call = lower(f.getName().substring("MPI_CALL_".length()));
            OmpState s = OmpState.mpi(f.getInt(null));
            assertEquals("MPI_" + call.toUpperCase(java.util.Locale.ROOT), s.name());
            assertEquals("mpi." + call, s.displayName());
            assertEquals("time.mpi." + call, s.metricName());
            assertEquals("time.mpi", s.groupMetricName());
            assertEquals(s, OmpState.of(s.code()));
            assertTrue(s.isMpi() && s.code() > 0x102);
            kinds++;
        }
        assertEquals(org.ompprof.sampler.wire.Wire.MPI_CALLS, kinds);
        assertEquals(
                kinds,
                java.util.Arrays.stream(OmpState.values())
                        .filter(OmpState::isMpi)
                        .count());
        assertEquals(OmpState.MPI_OTHER, OmpState.mpi(999));
        assertEquals(OmpState.MPI_OTHER, OmpState.mpi(-1));
    }

    @Test
    void namesAreUniqueAndUnknownValuesAreShownByValue() {
        assertEquals(
                OmpState.values().length,
                java.util.Arrays.stream(OmpState.values())
                        .map(OmpState::displayName)
                        .distinct()
                        .count());
        assertEquals("barrier.implicit_parallel", OmpState.nameOf(0x11));
        assertEquals("state_0x7777", OmpState.nameOf(0x7777));
        assertEquals("undefined", OmpState.nameOf(0x102));
        assertTrue(OmpState.order(0x000) < OmpState.order(0x011)
                && OmpState.order(0x011) < OmpState.order(0x042)
                && OmpState.order(0x021) < OmpState.order(OmpState.TASK_SCHEDULING.code())
                && OmpState.order(OmpState.TASK_SCHEDULING.code()) < OmpState.order(0x040)
                && OmpState.order(0x042) < OmpState.order(0x100)
                && OmpState.order(0x102) < OmpState.order(0x7777));
        assertEquals("worker", ThreadType.nameOf(2));
        assertEquals("type9", ThreadType.nameOf(9));
    }

    @Test
    void regionEndBarriersAreTheImplicitOnes() {
        List<OmpState> end = java.util.Arrays.stream(OmpState.values())
                .filter(OmpState::isRegionEndBarrier)
                .toList();
        assertEquals(
                List.of(OmpState.WAIT_BARRIER, OmpState.WAIT_BARRIER_IMPLICIT_PARALLEL, OmpState.WAIT_BARRIER_IMPLICIT),
                end);
    }

    /** Which mutex kinds are locks: swapping two kinds' values fails here and in the header check. */
    @Test
    void mutexKindsByValue() {
        assertEquals(
                List.of(
                        MutexKind.LOCK,
                        MutexKind.TEST_LOCK,
                        MutexKind.NEST_LOCK,
                        MutexKind.TEST_NEST_LOCK,
                        MutexKind.CRITICAL,
                        MutexKind.ATOMIC,
                        MutexKind.ORDERED),
                java.util.stream.IntStream.rangeClosed(1, 7)
                        .mapToObj(MutexKind::of)
                        .toList());
        assertEquals(
                List.of(true, true, true, true, false, false, false),
                java.util.Arrays.stream(MutexKind.values())
                        .map(MutexKind::isLock)
                        .toList());
        assertEquals(MutexKind.LOCK, MutexKind.of(99), "an unknown kind is treated as a lock");
    }

    private static String lower(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    private static String run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, String.join(" ", command) + "\n" + out);
        return out;
    }
}
