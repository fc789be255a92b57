package org.ompprof.calltree.profile;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.collections.impl.map.mutable.primitive.IntObjectHashMap;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.FrameTable;
import org.ompprof.calltree.MetricRegistry;
import org.ompprof.calltree.TreeCodec;
import org.ompprof.sampler.UserError;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.RecordingFormatException;
import org.ompprof.sampler.recording.SectionKind;
import org.ompprof.unwinder.stitch.StitchCounters;

/**
 * The profile in a profile file, decoded from its sections. A raw recording holds samples, not
 * a profile: its profile is built ({@code ReadOrBuild} in the build package reads either).
 */
public final class ProfileReader {
    private ProfileReader() {}

    /** @throws UserError if the file is a raw recording */
    public static Profile read(Recording file) {
        Profile p = withoutTimelines(file);
        return p.withTimelines(timelines(file, p.tree().size()));
    }

    /**
     * A profile file's tree and tables without its timelines, which are most of its bytes: what a
     * viewer shows first while {@link #timelines} are decoded.
     *
     * @throws UserError if the file is a raw recording
     */
    public static Profile withoutTimelines(Recording file) {
        if (!file.isProfile()) {
            throw new UserError(file.path()
                    + ": a raw recording (samples), not a profile; ompprof info, report, export, view and merge"
                    + " build its profile");
        }
        FrameTable frames =
                required(file, SectionKind.FRAMES, file.section(SectionKind.FRAMES, FrameTableCodec::decode));
        MetricRegistry metrics =
                required(file, SectionKind.METRICS, file.section(SectionKind.METRICS, MetricCodec::decode));
        CallingContextTree tree = file.section(SectionKind.TREE, b -> TreeCodec.decode(b, frames, metrics))
                .orElseThrow();
        RegionTable regions = file.section(
                        SectionKind.REGIONS, b -> RegionTableCodec.decode(b, tree.size(), file.formatVersion()))
                .orElse(new RegionTable(List.of()));
        MutexTable mutexes = file.section(SectionKind.MUTEXES, b -> MutexTableCodec.decode(b, tree.size()))
                .orElse(new MutexTable(List.of()));
        LineTable lines = file.section(
                        SectionKind.LINES, b -> LineTableCodec.decode(b, tree.size(), file.formatVersion()))
                .orElse(LineTable.EMPTY);
        DeviceTable devices = file.section(SectionKind.DEVICES, b -> DeviceTableCodec.decode(b, tree.size()))
                .orElse(DeviceTable.empty());
        MpiCallTable mpi =
                file.section(SectionKind.MPI_CALLS, MpiCallTableCodec::decode).orElse(MpiCallTable.empty());
        return new Profile(
                tree,
                List.of(),
                StitchCounters.fromMap(file.counters(SectionKind.STITCH)),
                file.counters(SectionKind.BLAME),
                regions,
                mutexes,
                lines,
                0,
                devices,
                mpi);
    }

    /** Calls {@code consumer} with each run of a timeline in the file, in file order, one at a time (for streaming). */
    public static void forEachTimelineRun(
            Recording file, int treeSize, java.util.function.Consumer<Timeline> consumer) {
        file.forEachSection(SectionKind.TIMELINE, (thread, payload) -> {
            Timeline.Builder b = new Timeline.Builder((int) thread);
            TimelineCodec.decode(payload, treeSize, b);
            consumer.accept(b.build());
        });
    }

    /** Each thread's timeline of a profile file whose tree has {@code treeSize} nodes, by thread. */
    public static List<Timeline> timelines(Recording file, int treeSize) {
        IntObjectHashMap<Timeline.Builder> builders = new IntObjectHashMap<>();
        file.forEachSection(SectionKind.TIMELINE, (thread, payload) -> {
            Timeline.Builder b = builders.getIfAbsentPut((int) thread, () -> new Timeline.Builder((int) thread));
            TimelineCodec.decode(payload, treeSize, b);
        });
        List<Timeline> timelines = new ArrayList<>();
        for (int thread : builders.keySet().toSortedArray())
            timelines.add(builders.get(thread).build());
        return timelines;
    }

    private static <T> T required(Recording file, SectionKind kind, java.util.Optional<T> value) {
        return value.orElseThrow(() -> new RecordingFormatException(
                file.path(), -1, "profile without a " + kind + " section; the file is damaged"));
    }
}
