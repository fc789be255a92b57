package org.ompprof.sampler.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.ompprof.sampler.UserError;
import org.ompprof.sampler.ring.RegionLayout;
import org.ompprof.sampler.wire.Wire;

class RecordOptionsTest {
    @Test
    void defaults() {
        RecordOptions o = RecordOptions.parse(List.of("--", "./app", "-o", "x"));
        assertEquals(Optional.empty(), o.output());
        assertEquals(Wire.MODE_WALL, o.mode());
        assertEquals(1000, o.rateHz());
        assertEquals(16384, o.stackBytes());
        assertEquals(64, o.slots());
        assertEquals(2048, o.ringKib());
        assertEquals(List.of("./app", "-o", "x"), o.command(), "options after -- belong to the program");
    }

    @Test
    void everyOption() {
        RecordOptions o = RecordOptions.parse(List.of(
                "-o",
                "r.ompprof",
                "--mode",
                "cpu",
                "--rate=2000",
                "--stack-bytes",
                "32768",
                "--slots",
                "8",
                "--ring-kib",
                "512",
                "app",
                "--rate",
                "5"));
        assertEquals(Optional.of("r.ompprof"), o.output());
        assertEquals(Wire.MODE_CPU, o.mode());
        assertEquals(2000, o.rateHz());
        assertEquals(32768, o.stackBytes());
        assertEquals(8, o.slots());
        assertEquals(512, o.ringKib());
        assertEquals(List.of("app", "--rate", "5"), o.command(), "the first non-option starts the command");
    }

    @Test
    void startPausedSetsTheRegionFlag() {
        RecordOptions paused = RecordOptions.parse(List.of("--start-paused", "app"));
        assertTrue(paused.startPaused());
        assertEquals(Wire.REGION_START_PAUSED, Recorder.layout(paused).flags());
        assertEquals(0, Recorder.layout(RecordOptions.parse(List.of("app"))).flags());
    }

    @Test
    void helpNeedsNoProgram() {
        assertTrue(RecordOptions.parse(List.of("--help")).help());
    }

    @Test
    void mistakesAreExplained() {
        assertMessage("no program given", List.of("-o", "x"));
        assertMessage("--mode must be wall or cpu, not 'gpu'", List.of("--mode", "gpu", "app"));
        assertMessage("--rate needs a whole number from 1 to 100000, not 'fast'", List.of("--rate", "fast", "app"));
        assertMessage("--rate needs a whole number from 1 to 100000, not '0'", List.of("--rate", "0", "app"));
        assertMessage("--ring-kib must be a power of two", List.of("--ring-kib", "1000", "app"));
        assertMessage("unknown option --frobnicate", List.of("--frobnicate", "app"));
        assertMessage("-o needs a value", List.of("-o"));
    }

    @Test
    void ringTooSmallForTheStackIsRefused() {
        UserError e = assertThrows(
                UserError.class, () -> Recorder.layout(RecordOptions.parse(List.of("--ring-kib", "16", "app"))));
        // four of the biggest samples: 16 KiB of stack and as much again from a frame register (Wire.SAMPLE_UPPER)
        assertTrue(e.getMessage().contains("use at least 256"), e.getMessage());
        assertEquals(
                256 * 1024,
                Recorder.layout(RecordOptions.parse(List.of("--ring-kib", "256", "app")))
                        .sampleRingSize());
        assertEquals(
                8 * 1024 * 1024,
                Recorder.layout(RecordOptions.parse(List.of("app"))).eventRingSize());
    }

    @Test
    void theEventRingIsSetApart() {
        RegionLayout l =
                Recorder.layout(RecordOptions.parse(List.of("--event-ring-kib", "32768", "--ring-kib", "512", "app")));
        assertEquals(32L << 20, l.eventRingSize());
        assertEquals(512L << 10, l.sampleRingSize());
        assertMessage("--event-ring-kib must be a power of two", List.of("--event-ring-kib", "3000", "app"));
        long tiny = Recorder.layout(RecordOptions.parse(List.of("--event-ring-kib", "4", "app")))
                .eventRingSize();
        assertTrue(
                tiny >= 8L * RecordOptions.DEFAULT_STACK_BYTES,
                "never smaller than eight of the biggest records: " + tiny);
    }

    private static void assertMessage(String part, List<String> args) {
        UserError e = assertThrows(UserError.class, () -> RecordOptions.parse(args));
        assertTrue(e.getMessage().contains(part), e.getMessage());
    }
}
