package org.ompprof.ui.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class NamesTest {
    /** How a sentence names a function: short, qualified, without parameters or return type. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
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
}
