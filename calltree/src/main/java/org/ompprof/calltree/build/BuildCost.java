package org.ompprof.calltree.build;

import java.nio.file.Path;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.sampler.collect.JfrRecording;
import org.ompprof.sampler.launch.CollectorCost;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.unwinder.clock.Stage;
import org.ompprof.unwinder.clock.StageClock;

/**
 * What building one profile cost: its {@link StageClock}, kept in the profile's metadata
 * ({@code build_ns.*}, {@code build_items.*}, the collector's CPU time and peak heap, for
 * {@code ompprof info}) and committed as JFR events ({@code ompprof.ProfileBuild} and one
 * {@code ompprof.BuildStage} per stage) when a recording asks for them.
 */
final class BuildCost {
    private static final Stage[] STAGES = Stage.values();

    private final Path source;
    private final StageClock clock;
    private final ProfileBuildEvent build;
    private final BuildStageEvent[] stages;

    private BuildCost(Path source, boolean timed) {
        this.source = source;
        boolean jfr = JfrRecording.active();
        build = jfr && ProfileBuildEvent.on() ? new ProfileBuildEvent() : null;
        stages = jfr && BuildStageEvent.on() ? new BuildStageEvent[STAGES.length] : null;
        if (build != null) build.begin();
        if (stages != null) {
            for (int i = 0; i < stages.length; i++) {
                stages[i] = new BuildStageEvent();
                stages[i].begin();
            }
        }
        clock = timed || build != null || stages != null ? StageClock.start(Stage.AGGREGATE) : StageClock.off();
    }

    /** A timed build (its times go into the profile's metadata). */
    static BuildCost start(Path source) {
        return new BuildCost(source, true);
    }

    /** A build timed only if JFR records its events (a profile built in memory keeps no metadata). */
    static BuildCost startIfRecorded(Path source) {
        return new BuildCost(source, false);
    }

    StageClock clock() {
        return clock;
    }

    /**
     * {@code m} with the build's time per stage so far, its items, and what the collector has
     * cost by now (CPU time, peak heap): read just before the metadata is written.
     */
    Metadata withCost(Metadata m) {
        Stage running = clock.enter(Stage.WRITE); // closes the running stretch: the stages add up to the wall time
        clock.enter(running);
        Metadata out = m.with(Metadata.BUILD_WALL_NS, Long.toString(clock.wallNs()));
        for (Stage s : STAGES) {
            out = out.with(Metadata.BUILD_STAGE_NS + s.key(), Long.toString(clock.ns(s)))
                    .with(Metadata.BUILD_STAGE_ITEMS + s.key(), Long.toString(clock.items(s)));
        }
        return out.with(Metadata.COLLECTOR_CPU_AT_PROFILE_NS, Long.toString(CollectorCost.cpuNs()))
                .with(Metadata.COLLECTOR_PEAK_HEAP_BYTES, Long.toString(CollectorCost.peakHeapBytes()));
    }

    /** Stops the clock and commits the events. @param output null for a profile built in memory */
    void finish(Path output, Profile profile, long bytes) {
        clock.stop();
        long wall = clock.wallNs();
        if (stages != null) {
            for (int i = 0; i < stages.length; i++) {
                BuildStageEvent e = stages[i];
                e.end();
                if (!e.shouldCommit()) continue;
                Stage s = STAGES[i];
                e.stage = s.key();
                e.stageTime = clock.ns(s);
                e.share = wall > 0 ? (double) clock.ns(s) / wall : 0;
                e.items = clock.items(s);
                e.itemKind = s.items();
                e.commit();
            }
        }
        if (build != null) {
            build.end();
            if (build.shouldCommit()) {
                build.source = String.valueOf(source);
                build.output = output == null ? "" : output.toString();
                build.samples = profile.samples();
                build.contexts = profile.tree().size();
                build.bytes = bytes;
                build.commit();
            }
        }
    }
}
