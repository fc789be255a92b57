package org.ompprof.ui.bench;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.ompprof.sampler.recording.ModuleInfo;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.RecordingWriter;
import org.ompprof.sampler.recording.SectionKind;

/**
 * {@code OneReadCopy RAW OUT}: a kept raw recording (its records deflated, for the disk) copied the way {@code record}
 * writes the one it builds its profile from and deletes: records and module images stored as they are. A build
 * benchmark that read the kept file would time inflating that the user's build never does.
 */
public final class OneReadCopy {
    /** A RECORDS payload's thread prefix (RecordingFormat.RECORDS_PREFIX). */
    private static final int PREFIX = 8;

    private OneReadCopy() {}

    public static void main(String[] args) throws IOException {
        try (Recording r = Recording.open(Path.of(args[0]));
                RecordingWriter w = RecordingWriter.create(Path.of(args[1])).forOneRead()) {
            w.metadata(r.metadata());
            w.threads(r.threads());
            w.modules(r.modules());
            for (ModuleInfo m : r.modules()) {
                var image = r.moduleImage(m.moduleId());
                if (image.isPresent()) w.moduleImage(m.moduleId(), new ByteArrayInputStream(image.get()));
            }
            Map<Long, RecordingWriter.ThreadRecords> threads = new HashMap<>();
            r.forEachSection(
                    SectionKind.RECORDS,
                    (seq, payload) -> copy(payload, threads.computeIfAbsent(seq, s -> w.threadRecords(s.intValue()))));
            for (RecordingWriter.ThreadRecords t : threads.values()) close(t);
            w.stats(r.stats());
            w.commit();
        }
    }

    private static void close(RecordingWriter.ThreadRecords t) {
        try {
            t.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The whole wire records after the payload's prefix, each led by its u32 size. */
    private static void copy(byte[] payload, RecordingWriter.ThreadRecords into) {
        ByteBuffer b = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
        try {
            for (int at = PREFIX; at < payload.length; at += b.getInt(at)) into.add(payload, at, b.getInt(at));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
