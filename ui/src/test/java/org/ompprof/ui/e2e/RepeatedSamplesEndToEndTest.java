package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.calltree.build.ProfileBuilder;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.SectionKind;

/**
 * Threads that wait where they are (the initial thread asleep in nanosleep, sampled from outside; workers asleep in
 * the runtime between regions, OMP_WAIT_POLICY=passive, sampled by signal) are sampled the same way a thousand times a
 * second: after the first sample of a wait the agent sends repeats of it, without its levels, frames or stack. The
 * profile is the one every sample whole would give: the recording is copied with each repeat written whole, and both
 * build to the same report.
 */
class RepeatedSamplesEndToEndTest {
    @TempDir
    Path work;

    @Test
    void repeatsMakeTheSameProfileAsWholeSamplesInAFractionOfTheBytes() throws Exception {
        Path profile = work.resolve("waits.ompprof");
        Ompprof.Result rec = Ompprof.run(
                work,
                Map.of("OMP_NUM_THREADS", "4", "OMP_WAIT_POLICY", "passive"),
                "record",
                "--keep-raw",
                "-o",
                profile.toString(),
                "--",
                CPrograms.clang("long_run").toString(),
                "2");
        assertEquals(0, rec.status(), rec.err());
        Ompprof.Result info = Ompprof.read("info", profile.toString());
        Matcher m = Pattern.compile("(\\d+) samples sent as a repeat of the one before")
                .matcher(info.out());
        assertTrue(m.find(), info.out());
        long repeated = Long.parseLong(m.group(1));
        Path raw = work.resolve("waits.ompprof.raw");
        Path whole = work.resolve("whole.raw");
        long samples = LongRecording.amplify(raw, whole, 1);
        // 4 threads x 2 s at 1 kHz; each ~8 ms wait (the initial thread's sleep, the workers' wait for the next
        // region) is one whole sample and about 7 repeats
        assertTrue(repeated > samples / 2, repeated + " repeats of " + samples + " samples\n" + info.out());
        assertTrue(
                recordBytes(raw) * 2 < recordBytes(whole),
                "records: " + recordBytes(raw) + " bytes with repeats, " + recordBytes(whole) + " whole");

        Path fromRaw = work.resolve("from-raw.ompprof"), fromWhole = work.resolve("from-whole.ompprof");
        try (Recording r = Recording.open(raw)) {
            ProfileBuilder.buildInto(fromRaw, r, 0, 2);
        }
        try (Recording r = Recording.open(whole)) {
            ProfileBuilder.buildInto(fromWhole, r, 0, 2);
        }
        String a = report(fromRaw), b = report(fromWhole);
        assertTrue(a.contains("samples"), a);
        assertEquals(a, b);
    }

    /** The records' bytes in the recording, before any deflating. */
    private static long recordBytes(Path recording) {
        try (Recording r = Recording.open(recording)) {
            long[] n = {0};
            r.forEachSection(SectionKind.RECORDS, (thread, payload) -> n[0] += payload.length);
            return n[0];
        }
    }

    /** The report without its first line, which names the file. */
    private static String report(Path profile) {
        Ompprof.Result r = Ompprof.read("report", profile.toString());
        assertEquals(0, r.status(), r.err());
        return r.out().substring(r.out().indexOf('\n') + 1);
    }
}
