package org.ompprof.ui.e2e;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.ompprof.sampler.record.RecordEncoder;
import org.ompprof.sampler.record.SampleRecord;
import org.ompprof.sampler.record.WireRecord;
import org.ompprof.sampler.recording.ModuleInfo;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.RecordingWriter;

/**
 * A long raw recording made from a short real one: every thread's samples repeated
 * {@code copies} times, each copy later by the recording's span, with the callback records
 * (regions, tasks, modules) once. The samples keep their real stacks, so the copy unwinds and
 * stitches like the original, and its profile is the original's times {@code copies}: what a
 * long run of a steady program would record, made in seconds.
 */
public final class LongRecording {
    private LongRecording() {}

    /** Writes the long recording to {@code out}; returns its samples. */
    public static long amplify(Path raw, Path out, int copies) throws IOException {
        long samples = 0;
        try (Recording r = Recording.open(raw);
                RecordingWriter w = RecordingWriter.create(out)) {
            w.metadata(r.metadata());
            w.threads(r.threads());
            w.modules(r.modules());
            w.stats(r.stats());
            for (ModuleInfo m : r.modules()) {
                byte[] image = r.moduleImage(m.moduleId()).orElse(null);
                if (image != null) w.moduleImage(m.moduleId(), new ByteArrayInputStream(image));
            }
            long span = span(r);
            for (int thread : r.recordThreads()) {
                List<WireRecord> records = r.records(thread).toList();
                try (RecordingWriter.ThreadRecords t = w.threadRecords(thread)) {
                    for (int c = 0; c < copies; c++) {
                        long shift = c * span;
                        for (WireRecord rec : records) {
                            if (rec instanceof SampleRecord s) {
                                t.add(RecordEncoder.encode(s.at(s.timeNs() + shift, s.weightNs())));
                                samples++;
                            } else if (c == 0) {
                                t.add(RecordEncoder.encode(rec));
                            }
                        }
                    }
                }
            }
            w.commit();
        }
        return samples;
    }

    /** From the first sample to one period after the last, over all threads. */
    private static long span(Recording r) {
        long[] range = {Long.MAX_VALUE, Long.MIN_VALUE, 0};
        r.records(type -> type == org.ompprof.sampler.wire.Wire.REC_SAMPLE).forEach(rec -> {
            SampleRecord s = (SampleRecord) rec;
            range[0] = Math.min(range[0], s.timeNs());
            range[1] = Math.max(range[1], s.timeNs());
            range[2] = Math.max(range[2], s.weightNs());
        });
        return range[1] - range[0] + range[2];
    }

    /** {@code LongRecording RAW OUT COPIES}: for benchmarks. */
    public static void main(String[] args) throws IOException {
        long t0 = System.nanoTime();
        long n = amplify(Path.of(args[0]), Path.of(args[1]), Integer.parseInt(args[2]));
        System.out.printf("%d samples in %.1f s%n", n, (System.nanoTime() - t0) / 1e9);
    }
}
