package org.ompprof.ui.pipeline;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.profile.DeviceTableCodec;
import org.ompprof.calltree.profile.FrameTableCodec;
import org.ompprof.calltree.profile.MetricCodec;
import org.ompprof.calltree.profile.LineTableCodec;
import org.ompprof.calltree.profile.MutexTableCodec;
import org.ompprof.calltree.profile.RegionTableCodec;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.calltree.profile.TimelineCodec;
import org.ompprof.calltree.TreeCodec;
import org.ompprof.sampler.recording.ImageSource;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.ModuleInfo;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.RecordingWriter;
import org.ompprof.sampler.recording.SectionKind;
import org.ompprof.sampler.recording.Stats;
import org.ompprof.sampler.recording.ThreadInfo;
import org.ompprof.unwinder.clock.Stage;
import org.ompprof.unwinder.clock.StageClock;
import org.ompprof.unwinder.image.ModuleImages;
import org.ompprof.unwinder.symbols.Symbolizer;

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

    /**
     * Builds the profile of a raw recording straight into {@code output}: the timelines are
     * written as they grow (see {@link TimelineStream}), downsampled to one entry per thread per
     * {@code timelineResolutionNs} unless that is 0, the tables at the end. Returns the size of
     * the file written.
     */
    public static long fromRecording(Path output, Recording raw, long timelineResolutionNs) throws IOException {
        BuildCost cost = BuildCost.start(raw.path());
        StageClock clock = cost.clock();
        ModuleImages images = new ModuleImages();
        Profile profile;
        long bytes;
        clock.enter(Stage.WRITE);
        try (RecordingWriter w = RecordingWriter.create(output); Symbolizer symbolizer = symbolizer(images, clock)) {
            TimelineStream timelines = TimelineStream.to(w, TimelineStream.DEFAULT_BUDGET).downsampled(timelineResolutionNs);
            profile = ProfileBuilder.build(raw, images, symbolizer, timelines, clock);
            Metadata metadata = timelineResolutionNs == 0 ? raw.metadata()
                    : raw.metadata().with(Metadata.TIMELINE_RESOLUTION_NS, Long.toString(timelineResolutionNs));
            clock.enter(Stage.WRITE);
            profileTables(w, new RunTables(metadata, raw.threads(), raw.modules(), raw.stats()), profile);
            long before = w.position();
            clock.count(Stage.WRITE, before);
            w.metadata(cost.withCost(metadata)); // last: the build's cost is known only now (sections are found by kind)
            bytes = w.commit();
            clock.count(Stage.WRITE, bytes - before);
            clock.enter(Stage.SYMBOLIZE); // llvm-symbolizer stops as the writer closes
        }
        cost.finish(output, profile, bytes);
        return bytes;
    }

    private static Symbolizer symbolizer(ModuleImages images, StageClock clock) {
        Stage was = clock.enter(Stage.SYMBOLIZE); // starting llvm-symbolizer
        try {
            return Symbolizer.create(images);
        } finally {
            clock.enter(was);
        }
    }

    /** Returns the size of the file written. */
    public static long write(Path output, Metadata metadata, List<ThreadInfo> threads, List<ModuleInfo> modules, Stats stats,
            Profile profile) throws IOException {
        try (RecordingWriter w = RecordingWriter.create(output)) {
            for (Timeline t : profile.timelines()) timeline(w, t);
            tables(w, new RunTables(metadata, threads, modules, stats), profile);
            return w.commit();
        }
    }

    /** One timeline (or a run of one), cut into sections; the reader joins a thread's sections in file order. */
    public static void timeline(RecordingWriter w, Timeline t) throws IOException {
        for (int from = 0; from < t.size(); from += TimelineCodec.CHUNK) {
            w.timeline(t.thread(), TimelineCodec.encode(t, from, Math.min(t.size(), from + TimelineCodec.CHUNK)));
        }
    }

    /** Everything but the timelines, which may come before or after (sections are found by kind, not place). */
    public static void tables(RecordingWriter w, RunTables run, Profile profile) throws IOException {
        w.metadata(run.metadata());
        profileTables(w, run, profile);
    }

    /** As {@link #tables}, all but the metadata. */
    private static void profileTables(RecordingWriter w, RunTables run, Profile profile) throws IOException {
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
    }

    private static List<ModuleInfo> imagesNotKept(List<ModuleInfo> modules) {
        return modules.stream().map(m -> m.image() != ImageSource.EMBEDDED ? m
                : m.withImage(ImageSource.USED, m.imagePath(), m.imageLength(), m.note())).toList();
    }
}
