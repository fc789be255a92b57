package org.ompprof.calltree.profile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.TreeCodec;
import org.ompprof.sampler.recording.ImageSource;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.ModuleInfo;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.RecordingWriter;
import org.ompprof.sampler.recording.RecordingWriter.EncodedSection;
import org.ompprof.sampler.recording.SectionKind;
import org.ompprof.sampler.recording.Stats;
import org.ompprof.sampler.recording.ThreadInfo;

/**
 * Writes a profile: the raw recording's tables (metadata, threads, modules, run statistics),
 * then the frames, metrics, tree, timelines and stitch counters. Frames, not stack bytes: the
 * images that were used to unwind and symbolize are not kept. Atomic, like every recording.
 */
public final class ProfileWriter {
    private ProfileWriter() {}

    /** The profile of a raw recording, with its tables; returns the size of the file written. */
    public static long write(Path output, Recording raw, Profile profile) throws IOException {
        return write(output, raw.metadata(), raw.threads(), raw.modules(), raw.stats(), profile);
    }

    /** Returns the size of the file written. */
    public static long write(
            Path output,
            Metadata metadata,
            List<ThreadInfo> threads,
            List<ModuleInfo> modules,
            Stats stats,
            Profile profile)
            throws IOException {
        try (RecordingWriter w = RecordingWriter.create(output)) {
            for (Timeline t : profile.timelines()) timeline(w, t);
            tables(w, new RunTables(metadata, threads, modules, stats), profile);
            return w.commit();
        }
    }

    /** One timeline (or a run of one), cut into sections; the reader joins a thread's sections in file order. */
    public static void timeline(RecordingWriter w, Timeline t) throws IOException {
        for (Supplier<EncodedSection> section : timelineSections(t)) w.append(section.get());
    }

    /** The sections of one timeline (or a run of one), in file order, each encoded where it is asked for. */
    static List<Supplier<EncodedSection>> timelineSections(Timeline t) {
        List<Supplier<EncodedSection>> sections = new ArrayList<>();
        for (int from = 0; from < t.size(); from += TimelineCodec.CHUNK) {
            int start = from, end = Math.min(t.size(), from + TimelineCodec.CHUNK);
            sections.add(() -> RecordingWriter.encodedTimeline(t.thread(), TimelineCodec.encode(t, start, end)));
        }
        return sections;
    }

    /** Everything but the timelines, which may come before or after (sections are found by kind, not place). */
    public static void tables(RecordingWriter w, RunTables run, Profile profile) throws IOException {
        w.metadata(run.metadata());
        tablesButMetadata(w, run, profile);
    }

    /**
     * As {@link #tables}, all but the metadata, which a profile built straight into its file writes last
     * (it holds the build's cost).
     */
    public static void tablesButMetadata(RecordingWriter w, RunTables run, Profile profile) throws IOException {
        CallingContextTree tree = profile.tree();
        w.threads(run.threads());
        w.modules(imagesNotKept(run.modules()));
        w.stats(run.stats());
        w.section(SectionKind.FRAMES, FrameTableCodec.encode(tree.frames()));
        w.section(SectionKind.METRICS, MetricCodec.encode(tree.metrics()));
        w.section(SectionKind.TREE, TreeCodec.encode(tree));
        w.counters(SectionKind.STITCH, profile.counters().asMap());
        w.counters(SectionKind.BLAME, new java.util.TreeMap<>(profile.blame()));
        w.section(SectionKind.REGIONS, RegionTableCodec.encode(profile.regions()));
        w.section(SectionKind.MUTEXES, MutexTableCodec.encode(profile.mutexes()));
        w.section(SectionKind.LINES, LineTableCodec.encode(profile.lines()));
        if (!profile.devices().isEmpty()) w.section(SectionKind.DEVICES, DeviceTableCodec.encode(profile.devices()));
        if (!profile.mpi().isEmpty()) w.section(SectionKind.MPI_CALLS, MpiCallTableCodec.encode(profile.mpi()));
    }

    private static List<ModuleInfo> imagesNotKept(List<ModuleInfo> modules) {
        return modules.stream()
                .map(m -> m.image() != ImageSource.EMBEDDED
                        ? m
                        : m.withImage(ImageSource.USED, m.imagePath(), m.imageLength(), m.note()))
                .toList();
    }
}
