package org.ompprof.calltree.profile;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.collections.impl.map.mutable.primitive.IntObjectHashMap;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.FrameTable;
import org.ompprof.calltree.MetricRegistry;
import org.ompprof.calltree.TreeCodec;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.RecordingFormatException;
import org.ompprof.sampler.recording.SectionKind;
import org.ompprof.unwinder.stitch.StitchCounters;
import org.ompprof.calltree.build.ProfileBuilder;

/**
 * The profile in a file: decoded from its sections, or built from the samples if the file is a
 * raw recording (made with {@code --keep-raw}, or by an older ompprof).
 */
public final class ProfileReader {
    private ProfileReader() {}

    public static Profile read(Recording file) {
        if (!file.isProfile()) return ProfileBuilder.build(file);
        Profile p = withoutTimelines(file);
        return p.withTimelines(timelines(file, p.tree().size()));
    }

    /**
     * A profile file's tree and tables without its timelines, which are most of its bytes: what a
     * viewer shows first while {@link #timelines} are decoded. Raw recordings are built whole.
     */
    public static Profile withoutTimelines(Recording file) {
        if (!file.isProfile()) return ProfileBuilder.build(file);
        FrameTable frames = required(file, SectionKind.FRAMES, file.section(SectionKind.FRAMES, ProfileSections.decoder(FrameTableCodec::decode)));
        MetricRegistry metrics = required(file, SectionKind.METRICS, file.section(SectionKind.METRICS, ProfileSections.decoder(MetricCodec::decode)));
        CallingContextTree tree = file.section(SectionKind.TREE, ProfileSections.decoder(b -> TreeCodec.decode(b, frames, metrics))).orElseThrow();
        RegionTable regions = file.section(SectionKind.REGIONS, ProfileSections.decoder(b -> RegionTableCodec.decode(b, tree.size())))
                .orElse(new RegionTable(List.of()));
        MutexTable mutexes = file.section(SectionKind.MUTEXES, ProfileSections.decoder(b -> MutexTableCodec.decode(b, tree.size())))
                .orElse(new MutexTable(List.of()));
        LineTable lines = file.section(SectionKind.LINES, ProfileSections.decoder(b -> LineTableCodec.decode(b, tree.size())))
                .orElse(LineTable.EMPTY);
        DeviceTable devices = file.section(SectionKind.DEVICES, ProfileSections.decoder(b -> DeviceTableCodec.decode(b, tree.size())))
                .orElse(DeviceTable.empty());
        return new Profile(tree, List.of(), StitchCounters.fromMap(file.counters(SectionKind.STITCH)), file.counters(SectionKind.BLAME),
                regions, mutexes, lines, 0, devices);
    }

    /** Calls {@code consumer} with each run of a timeline in the file, in file order, one at a time (for streaming). */
    public static void forEachTimelineRun(Recording file, int treeSize, java.util.function.Consumer<Timeline> consumer) {
        file.forEachSection(SectionKind.TIMELINE, (thread, payload) -> {
            Timeline.Builder b = new Timeline.Builder((int) thread);
            ProfileSections.decoder(p -> {
                TimelineCodec.decode(p, treeSize, b);
                return null;
            }).decode(payload);
            consumer.accept(b.build());
        });
    }

    /** Each thread's timeline of a profile file whose tree has {@code treeSize} nodes, by thread. */
    public static List<Timeline> timelines(Recording file, int treeSize) {
        IntObjectHashMap<Timeline.Builder> builders = new IntObjectHashMap<>();
        file.forEachSection(SectionKind.TIMELINE, (thread, payload) -> {
            Timeline.Builder b = builders.getIfAbsentPut((int) thread, () -> new Timeline.Builder((int) thread));
            ProfileSections.decoder(p -> {
                TimelineCodec.decode(p, treeSize, b);
                return null;
            }).decode(payload);
        });
        List<Timeline> timelines = new ArrayList<>();
        for (int thread : builders.keySet().toSortedArray()) timelines.add(builders.get(thread).build());
        return timelines;
    }

    private static <T> T required(Recording file, SectionKind kind, java.util.Optional<T> value) {
        return value.orElseThrow(() -> new RecordingFormatException(file.path(), -1, "profile without a " + kind + " section; the file is damaged"));
    }
}
