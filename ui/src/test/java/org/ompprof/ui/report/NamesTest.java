package org.ompprof.ui.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.profile.LineTable;

class NamesTest {
    /** How a sentence names a function: short, qualified, without parameters or return type. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "work_units|work_units()",
                "CalcEnergyForElems(double*, double*, double*, double, int, int*)|CalcEnergyForElems()",
                "std::ostream& std::ostream::_M_insert<double>(double)|std::ostream::_M_insert<double>()",
                "void Release<double>(double**)|Release<double>()",
                "geo::Grid<std::pair<int, int> >::relax(int)|geo::Grid<std::pair<int, int> >::relax()",
                "std::function<void (int)>::operator()(int) const|std::function<void (int)>::operator()()",
                "parallel at lulesh.cc:1234|parallel at lulesh.cc:1234",
                "<omp barrier>|<omp barrier>",
                "solver::relax|solver::relax()",
                "libomp.so.5+0xb9933|libomp.so.5+0xb9933()",
            })
    void functionNames(String full, String shown) {
        assertEquals(shown, Names.function(full));
    }

    /** Any text at all: never throws, never longer than it was plus the two brackets. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void garbageNeverThrows(long seed) {
        Random r = new Random(seed);
        String alphabet = "ab:<>() ,*&~";
        for (int i = 0; i < 5000; i++) {
            StringBuilder b = new StringBuilder();
            for (int n = r.nextInt(30); n > 0; n--) b.append(alphabet.charAt(r.nextInt(alphabet.length())));
            String shown = Names.function(b.toString());
            assertFalse(shown.length() > b.length() + 2, b + " -> " + shown);
        }
    }

    /** A holder sampled inside libc or the vDSO is named by the program's function that called into them. */
    @Test
    void contextsInSystemLibrariesAreNamedByTheProgramsCaller() {
        CallingContextTree tree = CallingContextTree.create();
        int[] path = {
            tree.frames().intern(Frame.of(FrameKind.USER, "/work/app", "main", "app.c", 3)),
            tree.frames().intern(Frame.of(FrameKind.USER, "/work/app", "spin_for", "app.c", 9)),
            tree.frames().intern(Frame.of(FrameKind.USER, "/work/app", "now_s", "app.c", 5)),
            tree.frames()
                    .intern(Frame.of(
                            FrameKind.USER, "/usr/lib/x86_64-linux-gnu/libc.so.6", "__clock_gettime", null, 0)),
            tree.frames().intern(Frame.of(FrameKind.USER, "linux-vdso.so.1", "__vdso_clock_gettime", null, 0)),
        };
        int leaf = tree.path(path, path.length);
        int spin = tree.parent(tree.parent(tree.parent(leaf))), main = tree.parent(spin);
        LineTable.Builder lines = new LineTable.Builder();
        lines.add(spin, 9, 5, false);
        lines.add(spin, 11, 2, false);
        lines.add(main, 3, 7, false);
        LineTable table = lines.build();
        assertEquals("now_s() called from spin_for() at app.c:9", Names.call(tree, table, leaf));
        assertEquals("spin_for() called from main() at app.c:3", Names.call(tree, table, spin));
        assertEquals(
                "spin_for() called from main() at app.c",
                Names.call(tree, LineTable.EMPTY, spin),
                "no line known: the file");
        int libcOnly = tree.path(new int[] {path[3]}, 1);
        assertEquals(
                "__clock_gettime()",
                Names.call(tree, table, libcOnly),
                "nothing of the program's own: the frame itself");
    }

    /** The runtime is no program code wherever it is installed (a user's own LLVM build). */
    @Test
    void anInstalledRuntimeIsNotTheProgramsCode() {
        CallingContextTree tree = CallingContextTree.create();
        int[] path = {
            tree.frames().intern(Frame.of(FrameKind.USER, "/work/app", "main", "app.c", 3)),
            tree.frames().intern(Frame.of(FrameKind.USER, "/opt/llvm/lib/libomp.so", "__kmpc_critical", null, 0)),
        };
        assertEquals("main()", Names.call(tree, LineTable.EMPTY, tree.path(path, path.length)));
    }
}
