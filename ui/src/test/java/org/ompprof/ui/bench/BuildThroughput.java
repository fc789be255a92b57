package org.ompprof.ui.bench;

import java.nio.file.Path;
import java.util.Map;
import org.ompprof.calltree.build.ProfileBuilder;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.unwinder.clock.Stage;

/**
 * What a profile build measures of itself (scripts/bench-build runs it), as lines of {@code
 * threads wall_ns samples records}, records being all the recording's, read or not:
 * <ul>
 * <li>{@code BuildThroughput RAW OUT THREADS}: one build of a raw recording as {@code record}
 *   does when the program ends, in this JVM as it starts (cold);
 * <li>{@code BuildThroughput RAW OUT warm REPEAT}: three builds to warm the JVM up, then REPEAT
 *   builds on 1 thread alternating with REPEAT on 2.
 * </ul>
 */
public final class BuildThroughput {
    private static final int WARM_UPS = 3;

    private BuildThroughput() {}

    public static void main(String[] args) throws Exception {
        Path raw = Path.of(args[0]);
        Path out = Path.of(args[1]);
        long records;
        try (Recording r = Recording.open(raw)) {
            records = r.records().count();
        }
        if (!args[2].equals("warm")) {
            System.out.println(measure(raw, out, Integer.parseInt(args[2]), records));
            return;
        }
        for (int i = 0; i < WARM_UPS; i++) measure(raw, out, 2 - i % 2, records);
        for (int i = 0; i < Integer.parseInt(args[3]); i++) {
            System.out.println(measure(raw, out, 1, records));
            System.out.println(measure(raw, out, 2, records));
        }
    }

    private static String measure(Path raw, Path out, int threads, long records) throws Exception {
        try (Recording r = Recording.open(raw)) {
            ProfileBuilder.buildInto(out, r, 0, threads);
        }
        Map<String, String> m;
        try (Recording profile = Recording.open(out)) {
            m = profile.metadata().entries();
        }
        return threads + " " + m.get(Metadata.BUILD_WALL_NS) + " "
                + m.get(Metadata.BUILD_STAGE_ITEMS + Stage.AGGREGATE.key()) + " " + records;
    }
}
