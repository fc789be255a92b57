package org.ompprof.sampler.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.sampler.UserError;
import org.ompprof.sampler.wire.Wire;

class SamplingSignalTest {
    @Test
    void namesAndNumbers() {
        assertEquals(27, SamplingSignal.parse("SIGPROF"));
        assertEquals(38, SamplingSignal.parse("SIGRTMIN+4"));
        assertEquals(38, SamplingSignal.parse("rtmin+4"));
        assertEquals(62, SamplingSignal.parse("SIGRTMAX-2"));
        assertEquals(12, SamplingSignal.parse("SIGUSR2"));
        assertEquals(40, SamplingSignal.parse("40"));
        assertEquals("SIGRTMIN+4", SamplingSignal.name(SamplingSignal.parse("SIGRTMIN+4")));
        assertEquals(
                38,
                RecordOptions.parse(List.of("--signal", "SIGRTMIN+4", "--", "prog"))
                        .signal());
        assertEquals(27, RecordOptions.parse(List.of("prog")).signal());
    }

    @ParameterizedTest
    @ValueSource(strings = {"SIGKILL", "9", "SIGRTMIN+40", "SIGRTMIN-1", "33", "", "SIGSEGV"})
    void signalsTheProgramOrTheSystemNeedAreRefused(String v) {
        UserError e = assertThrows(UserError.class, () -> SamplingSignal.parse(v));
        assertTrue(e.getMessage().startsWith("record: --signal"), e.getMessage());
    }

    @Test
    void eachProblemIsOneLineSayingWhatToDo() {
        assertEquals(List.of(), SamplingSignal.problems(27, 0, 0));
        List<String> all =
                SamplingSignal.problems(27, Wire.SIGNAL_TAKEN | Wire.SIGNAL_REPLACED | Wire.SIGNAL_BLOCKED, 12);
        assertEquals(4, all.size());
        assertTrue(all.get(0).contains("nothing was sampled") && all.get(0).contains("--signal"), all.get(0));
        assertTrue(all.get(3).startsWith("12 SIGPROF signals that ompprof did not send"), all.get(3));
    }
}
