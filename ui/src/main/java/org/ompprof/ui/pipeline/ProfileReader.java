package org.ompprof.ui.pipeline;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.collections.impl.map.mutable.primitive.IntObjectHashMap;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.FrameTable;
import org.ompprof.calltree.MetricRegistry;
import org.ompprof.calltree.profile.FrameTableCodec;
import org.ompprof.calltree.profile.MetricCodec;
import org.ompprof.calltree.profile.MutexTable;
import org.ompprof.calltree.profile.MutexTableCodec;
import org.ompprof.calltree.profile.RegionTable;
import org.ompprof.calltree.profile.RegionTableCodec;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.calltree.profile.TimelineCodec;
import org.ompprof.calltree.TreeCodec;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.RecordingFormatException;
import org.ompprof.sampler.recording.SectionKind;
import org.ompprof.unwinder.stitch.StitchCounters;

/**
 * The profile in a file: decoded from its sections, or built from the samples if the file is a
 * raw recording (made with {@code --keep-raw}, or by an older ompprof).
 */
public final class ProfileReader {
    private ProfileReader() {}

    public static Profile read(Recording file) {
        return file.isProfile() ? decode(file) : ProfileBuilder.build(file);
    }

    /**
     * The profile without its timelines, read section by section: what a merge holds of an
     * input while it streams the input's timelines across. A raw recording is built whole.
     */
    public static Profile readWithoutTimelines(Recording file) {
        if (!file.isProfile()) return ProfileBuilder.build(file);
        CallingContextTree tree = tree(file);
        return new Profile(tree, List.of(), StitchCounters.fromMap(file.counters(SectionKind.STITCH)), file.counters(SectionKind.BLAME),
                regions(file, tree), mutexes(file, tree), 0);
    }

    /** Calls {@code consumer} with each run of a timeline in the file, in file order; nodes are checked against {@code nodes}. */
    public static void forEachTimelineRun(Recording file, int nodes, java.util.function.Consumer<Timeline> consumer) {
        file.forEachSection(SectionKind.TIMELINE, (thread, payload) -> {
            Timeline.Builder b = new Timeline.Builder((int) thread);
            ProfileSections.decoder(p -> {
                TimelineCodec.decode(p, nodes, b);
                return null;
            }).decode(payload);
            consumer.accept(b.build());
        });
    }

    private static Profile decode(Recording file) {
        CallingContextTree tree = tree(file);
        IntObjectHashMap<Timeline.Builder> builders = new IntObjectHashMap<>();
        long[] samples = {0};
        file.forEachSection(SectionKind.TIMELINE, (thread, payload) -> {
            Timeline.Builder b = builders.getIfAbsentPut((int) thread, () -> new Timeline.Builder((int) thread));
            int before = b.size();
            ProfileSections.decoder(p -> {
                TimelineCodec.decode(p, tree.size(), b);
                return null;
            }).decode(payload);
            samples[0] += b.size() - before;
        });
        List<Timeline> timelines = new ArrayList<>();
        for (int thread : builders.keySet().toSortedArray()) timelines.add(builders.get(thread).build());
        return new Profile(tree, timelines, StitchCounters.fromMap(file.counters(SectionKind.STITCH)), file.counters(SectionKind.BLAME),
                regions(file, tree), mutexes(file, tree), samples[0]);
    }

    private static CallingContextTree tree(Recording file) {
        FrameTable frames = required(file, SectionKind.FRAMES, file.section(SectionKind.FRAMES, ProfileSections.decoder(FrameTableCodec::decode)));
        MetricRegistry metrics = required(file, SectionKind.METRICS, file.section(SectionKind.METRICS, ProfileSections.decoder(MetricCodec::decode)));
        return file.section(SectionKind.TREE, ProfileSections.decoder(b -> TreeCodec.decode(b, frames, metrics))).orElseThrow();
    }

    private static RegionTable regions(Recording file, CallingContextTree tree) {
        return file.section(SectionKind.REGIONS, ProfileSections.decoder(b -> RegionTableCodec.decode(b, tree.size())))
                .orElse(new RegionTable(List.of()));
    }

    private static MutexTable mutexes(Recording file, CallingContextTree tree) {
        return file.section(SectionKind.MUTEXES, ProfileSections.decoder(b -> MutexTableCodec.decode(b, tree.size())))
                .orElse(new MutexTable(List.of()));
    }

    private static <T> T required(Recording file, SectionKind kind, java.util.Optional<T> value) {
        return value.orElseThrow(() -> new RecordingFormatException(file.path(), -1, "profile without a " + kind + " section; the file is damaged"));
    }
}
