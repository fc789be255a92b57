package org.ompprof.calltree.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.eclipse.collections.impl.list.mutable.primitive.IntArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.build.DisplayNames.Outlined;

/** Each naming rule on the compilers' real spellings, and on garbage (never an exception). */
class DisplayNamesTest {
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "main.omp_outlined|PARALLEL_WRAPPER|main",
                "main.omp_outlined.2|PARALLEL_WRAPPER|main",
                "main.omp_outlined_debug__|PARALLEL_BODY|main",
                "main.omp_outlined_debug__.3|PARALLEL_BODY|main",
                ".omp_outlined_debug__.26|PARALLEL_BODY|''",
                ".omp_outlined.|PARALLEL_WRAPPER|''",
                ".omp_outlined..1|PARALLEL_WRAPPER|''",
                ".omp_outlined._debug__.|PARALLEL_BODY|''",
                "_Z7computev.omp_outlined|PARALLEL_WRAPPER|_Z7computev",
                "CalcEnergyForElems(double*, double, int*) "
                        + "(.omp_outlined)|PARALLEL_WRAPPER|CalcEnergyForElems(double*, double, int*)",
                "CalcEnergyForElems(double*, double, int*) "
                        + "(.omp_outlined_debug__)|PARALLEL_BODY|CalcEnergyForElems(double*, double, int*)",
                "Domain::run() const (.omp_outlined_debug__.2)|PARALLEL_BODY|Domain::run() const",
                ".omp_task_entry.|TASK|",
                ".omp_task_entry..5|TASK|",
                "__omp_offloading_10302_b4e2d1_main_l27|TARGET|",
                "__omp_offloading_fe00_51847f_launch_kernels_l15_debug__|TARGET|",
                "main.omp_outlined_debug__.omp.reduction.reduction_func|REDUCTION|",
                "main._omp_fn.0|GCC_BODY|",
                "__solver_MOD_relax._omp_fn.12|GCC_BODY|"
            })
    void outlinedSymbolsAreRecognized(String symbol, Outlined kind, String from) {
        assertEquals(kind, DisplayNames.outlined(symbol));
        if (kind == Outlined.PARALLEL_WRAPPER || kind == Outlined.PARALLEL_BODY)
            assertEquals(from, DisplayNames.outlinedFrom(symbol));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "main",
                "omp_outlined",
                "compute_omp_fn",
                "._omp_fn.",
                "__kmpc_fork_call",
                "omp_get_thread_num",
                ".omp_task_privates_map.",
                "main._omp_cpyfn.1",
                "",
                "__omp_offloading_",
                "x.omp_outlinedx"
            })
    void otherNamesAreNotOutlined(String symbol) {
        assertNull(DisplayNames.outlined(symbol), symbol);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "PARALLEL_WRAPPER|main.omp_outlined|/src/region_heavy.c|27|parallel at region_heavy.c:27",
                "GCC_BODY|main._omp_fn.0|spin.c|12|parallel at spin.c:12",
                "TASK|.omp_task_entry.|/a/b/fib.c|16|task at fib.c:16",
                "TARGET|__omp_offloading_10302_b4e2d1_main_l27|off.c|27|target at off.c:27",
                "PARALLEL_BODY|main.omp_outlined_debug__|r.c|0|parallel at r.c",
                "PARALLEL_WRAPPER|main.omp_outlined|''|0|parallel in main",
                "GCC_BODY|work._omp_fn.3|''|0|parallel in work",
                "GCC_BODY|__advec_mom_kernel_mod_MOD_advec_mom_kernel._omp_fn.0|''|0|"
                        + "parallel in advec_mom_kernel_mod::advec_mom_kernel",
                "GCC_BODY|MAIN__._omp_fn.1|''|0|parallel in program",
                "GCC_BODY|__solver_MOD_relax._omp_fn.2|relax.f90|40|parallel at relax.f90:40",
                "TARGET|__omp_offloading_10302_b4e2d1_main_l27|''|27|target in main at line 27",
                "TASK|.omp_task_entry.|''|0|task",
                "PARALLEL_WRAPPER|__omp_offloading_fe00_51847f_launch_kernels_l15_debug__.omp_outlined|offload.c|"
                        + "15|target at offload.c:15",
                "PARALLEL_BODY|__omp_offloading_fe00_51847f_launch_kernels_l15_debug__.omp_outlined_debug__|''|0|"
                        + "target in launch_kernels at line 15",
                "PARALLEL_WRAPPER|__omp_offloading_fe00_51847f_launch_kernels_l15_debug__.omp_outlined_debug__"
                        + ".omp_outlined|offload.c|15|parallel at offload.c:15"
            })
    void constructsAreNamedWithTheirLine(Outlined kind, String symbol, String file, int line, String shown) {
        assertEquals(shown, DisplayNames.construct(kind, symbol, file, line));
    }

    @Test
    void offloadingEntriesCarryTheirLine() {
        assertEquals(27, DisplayNames.offloadLine("__omp_offloading_10302_b4e2d1_main_l27"));
        assertEquals(0, DisplayNames.offloadLine("__omp_offloading_10302_b4e2d1_main_l99999999999999"));
        assertEquals(0, DisplayNames.offloadLine("main"));
        assertEquals(0, DisplayNames.offloadLine(null));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            nullValues = "NULL",
            value = {
                "__solver_MOD_relax|NULL|solver::relax",
                "__my_mod_MOD_do_it|NULL|my_mod::do_it",
                "MAIN__|heat|heat",
                "MAIN__|NULL|program",
                "_QQmain|NULL|program",
                "_QQmain|heat|heat",
                "_QMsolverPrelax|NULL|solver::relax",
                "_QPrelax|NULL|relax",
                "_QMsolverFhostPinner|NULL|solver::host::inner",
                "relax_|NULL|NULL",
                "main|NULL|NULL",
                "__MOD_x|NULL|NULL",
                "_QMsolverEx|NULL|NULL",
                "_Q|NULL|NULL",
                "_ZN3fooEv|NULL|NULL"
            })
    void fortranNames(String symbol, String program, String shown) {
        assertEquals(shown, DisplayNames.fortran(symbol, program));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            nullValues = "NULL",
            value = {
                "adi_|/src/bt/adi.f|adi",
                "x_solve_|x_solve.F90|x_solve",
                "compute_rhs_|rhs.for|compute_rhs",
                "relax_|heat.f08|relax",
                "adi_|adi.c|NULL",
                "adi_|NULL|NULL",
                "my_name__|a.f90|NULL",
                "Adi_|adi.f|NULL",
                "adi|adi.f|NULL",
                "_|a.f|NULL",
                "MAIN__|a.f|NULL"
            })
    void gfortranExternalProceduresLoseTheirUnderscoreInFortranSources(String symbol, String file, String shown) {
        assertEquals(shown, DisplayNames.fortranExternal(symbol, file));
    }

    @Test
    void itaniumNamesOnly() {
        assertTrue(DisplayNames.itanium("_ZNSo9_M_insertIdEERSoT_"));
        assertFalse(DisplayNames.itanium("main"));
        assertFalse(DisplayNames.itanium("_Z"));
        assertFalse(DisplayNames.itanium("_Z3f v"));
        assertFalse(DisplayNames.itanium(null));
        assertFalse(DisplayNames.itanium("?foo@@YAXXZ"));
    }

    @Test
    void programNamesMustLookLikeFortran() {
        assertTrue(ProgramName.valid("heat"));
        assertTrue(ProgramName.valid("heat_2d"));
        assertFalse(ProgramName.valid("MAIN__"));
        assertFalse(ProgramName.valid("??"));
        assertFalse(ProgramName.valid(""));
        assertFalse(ProgramName.valid("/tmp/m.f90:13:12"));
        assertFalse(ProgramName.valid(null));
    }

    /** Random strings, random cuts and splices of real names: every rule answers, none throws. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 17, 4242})
    void garbageNeverThrows(long seed) {
        Random random = new Random(seed);
        List<String> real = List.of(
                "main.omp_outlined_debug__.3",
                "__solver_MOD_relax",
                "_QMsolverPrelax",
                "_ZNSo9_M_insertIdEERSoT_",
                "__omp_offloading_10302_b4e2d1_main_l27",
                ".omp_task_entry.",
                "main._omp_fn.0",
                "MAIN__",
                "_QQmain");
        String alphabet = "_.QMPFZ0123456789abclmo_MOD_omp_outlined_debug__ \t\n\u00e9\u0000:/";
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            String base = real.get(random.nextInt(real.size()));
            switch (random.nextInt(3)) {
                case 0 -> names.add(base.substring(0, random.nextInt(base.length() + 1)));
                case 1 ->
                    names.add(
                            base.substring(random.nextInt(base.length() + 1)) + real.get(random.nextInt(real.size())));
                default -> {
                    StringBuilder b = new StringBuilder();
                    for (int k = random.nextInt(40); k > 0; k--)
                        b.append(alphabet.charAt(random.nextInt(alphabet.length())));
                    names.add(b.toString());
                }
            }
        }
        for (String n : names) {
            Outlined o = DisplayNames.outlined(n);
            if (o != null)
                assertNotNull(DisplayNames.construct(o, n, random.nextBoolean() ? "" : "f.c", random.nextInt(3)));
            DisplayNames.outlinedFrom(n);
            DisplayNames.offloadLine(n);
            String f = DisplayNames.fortran(n, random.nextBoolean() ? null : "prog");
            if (f != null) assertFalse(f.isEmpty(), n);
            DisplayNames.itanium(n);
            ProgramName.valid(n);
            Frame frame = Frame.of(FrameKind.USER, "app", n.isEmpty() ? "x" : n, null, 0);
            FrameNames.role(frame);
        }
        Map<String, String> demangled = Demangler.create().demangle(names);
        for (var e : demangled.entrySet()) {
            assertTrue(DisplayNames.itanium(e.getKey()));
            assertFalse(e.getValue().isEmpty());
        }
    }

    @Test
    void demanglesSymbolTableNamesInOneBatch() {
        Demangler d = Demangler.create();
        Map<String, String> out = d.demangle(List.of(
                "_ZNSo9_M_insertIdEERSoT_",
                "_ZNKSt7num_putIcSt19ostreambuf_iteratorIcSt11char_traitsIcEEE15_M_insert_floatIdEES3_S3_RSt8ios_"
                        + "baseccT_",
                "main",
                "_Zgarbage",
                "_Z3foov.cold",
                "_ZNSo9_M_insertIdEERSoT_"));
        assertNull(d.problem());
        assertEquals("std::ostream& std::ostream::_M_insert<double>(double)", out.get("_ZNSo9_M_insertIdEERSoT_"));
        assertEquals(
                "std::ostreambuf_iterator<char, std::char_traits<char>> std::num_put<char, "
                        + "std::ostreambuf_iterator<char, "
                        + "std::char_traits<char>>>::_M_insert_float<double>(std::ostreambuf_iterator<char, "
                        + "std::char_traits<char>>, "
                        + "std::ios_base&, char, char, double) const",
                out.get("_ZNKSt7num_putIcSt19ostreambuf_iteratorIcSt11char_traitsIcEEE15_M_insert_floatIdEES3_S3_"
                        + "RSt8ios_baseccT_"));
        assertEquals("foo() (.cold)", out.get("_Z3foov.cold"));
        assertFalse(out.containsKey("main"));
        assertFalse(out.containsKey("_Zgarbage"), "not demangled: left as it was");
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) many.add("_Z" + ("f" + i).length() + "f" + i + "v");
        Map<String, String> big = d.demangle(many);
        assertEquals(20_000, big.size());
        assertEquals("f19999()", big.get("_Z6f19999v"));
    }

    private static final DisplayNames.Outlined W = Outlined.PARALLEL_WRAPPER, B = Outlined.PARALLEL_BODY;

    /**
     * Path assembly: the debug body under its own wrapper and a body under its task entry are one frame; nested regions
     * stay two; agent frames end it.
     */
    @Test
    void pathAssembly() {
        Map<Integer, FrameNames.Role> roles = Map.of(
                10,
                new FrameNames.Role(W, "main", false),
                11,
                new FrameNames.Role(B, "main", false),
                12,
                new FrameNames.Role(W, "main", false),
                13,
                new FrameNames.Role(B, "main", false),
                20,
                new FrameNames.Role(Outlined.TASK, null, false),
                21,
                new FrameNames.Role(W, "", false),
                30,
                new FrameNames.Role(B, "other", false),
                99,
                FrameNames.AGENT);
        IntArrayList path = new IntArrayList(), lines = new IntArrayList();
        assertTrue(FrameNames.append(new int[] {1, 10, 11, 5}, new int[] {4, 6, 9, 2}, roles::get, 0, path, lines));
        assertEquals(IntArrayList.newListWith(1, 10, 5), path);
        assertEquals(IntArrayList.newListWith(4, 9, 2), lines, "the wrapper is at its body's line");
        path.clear();
        lines.clear();
        // a nested region: the inner wrapper under the outer body is a frame of its own
        assertTrue(FrameNames.append(
                new int[] {1, 10, 11, 12, 13}, new int[] {1, 2, 3, 4, 5}, roles::get, 0, path, lines));
        assertEquals(IntArrayList.newListWith(1, 10, 12), path);
        path.clear();
        lines.clear();
        assertTrue(FrameNames.append(new int[] {1, 20, 21, 5}, new int[] {1, 2, 3, 4}, roles::get, 0, path, lines));
        assertEquals(IntArrayList.newListWith(1, 20, 5), path, "a task's body under its entry is the task");
        path.clear();
        lines.clear();
        assertTrue(FrameNames.append(new int[] {1, 10, 30}, new int[] {1, 2, 3}, roles::get, 0, path, lines));
        assertEquals(IntArrayList.newListWith(1, 10, 30), path, "another function's body under a wrapper stays");
        path.clear();
        lines.clear();
        // a target entry, its debug twin, the body outlined from it (and its debug twin): one target region; a parallel
        // in it stays
        Map<Integer, FrameNames.Role> target = Map.of(
                40,
                FrameNames.role(frame("__omp_offloading_fe00_5_k_l15")),
                41,
                FrameNames.role(frame("__omp_offloading_fe00_5_k_l15_debug__")),
                42,
                FrameNames.role(frame("__omp_offloading_fe00_5_k_l15_debug__.omp_outlined")),
                43,
                FrameNames.role(frame("__omp_offloading_fe00_5_k_l15_debug__.omp_outlined_debug__")),
                44,
                FrameNames.role(frame("__omp_offloading_fe00_5_k_l15_debug__.omp_outlined_debug__.omp_outlined")),
                45,
                FrameNames.role(
                        frame("__omp_offloading_fe00_5_k_l15_debug__.omp_outlined_debug__.omp_outlined_debug__")));
        assertTrue(
                FrameNames.append(new int[] {1, 40, 41, 42, 43, 44, 45, 5}, new int[8], target::get, 0, path, lines));
        assertEquals(IntArrayList.newListWith(1, 40, 44, 5), path);
        path.clear();
        lines.clear();
        assertTrue(FrameNames.append(new int[] {1, 42, 43, 44, 45, 5}, new int[6], target::get, 0, path, lines));
        assertEquals(
                IntArrayList.newListWith(1, 42, 44, 5),
                path,
                "without its entry on the stack, the target's body stands for it");
        path.clear();
        lines.clear();
        assertFalse(FrameNames.append(new int[] {1, 10, 99, 5}, new int[] {1, 2, 3, 4}, roles::get, 0, path, lines));
        // an absorbed frame never merges across the start of a path
        path.clear();
        lines.clear();
        path.add(10);
        lines.add(1);
        assertTrue(FrameNames.append(new int[] {11}, new int[] {7}, roles::get, 1, path, lines));
        assertEquals(IntArrayList.newListWith(10, 11), path);
    }

    private static Frame frame(String function) {
        return Frame.of(FrameKind.USER, "app", function, null, 0);
    }

    @Test
    void agentModules() {
        assertTrue(FrameNames.isAgent("/work/native-sigprof/target/libompprof.so"));
        assertTrue(FrameNames.isAgent("libompprof-audit.so"));
        assertFalse(FrameNames.isAgent("/usr/lib/libomp.so.5"));
        assertFalse(FrameNames.isAgent("/home/u/libompprofiler_user.so.1x"));
        assertFalse(FrameNames.isAgent(null));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "EvalEOSForElems(Domain&, double*, int, int*, int)|EvalEOSForElems",
                "ns::A<int (*)(int)>::run() const|ns::A<int (*)(int)>::run",
                "CalcFBHourglassForceForElems(Domain&, double*, double, int, int)|CalcFBHourglassForceForElems",
                "plain|plain",
                "(anonymous namespace)::f(int)|(anonymous namespace)::f"
            })
    void constructsNameTheirFunctionWithoutItsParameters(String demangled, String bare) {
        assertEquals(bare, DisplayNames.bareName(demangled));
    }
}
