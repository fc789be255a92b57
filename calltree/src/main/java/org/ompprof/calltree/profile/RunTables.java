package org.ompprof.calltree.profile;

import java.util.List;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.ModuleInfo;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.Stats;
import org.ompprof.sampler.recording.ThreadInfo;

/** The tables a recording has about its run, which a profile file keeps: metadata, threads, modules, statistics. */
public record RunTables(Metadata metadata, List<ThreadInfo> threads, List<ModuleInfo> modules, Stats stats) {
    public RunTables {
        threads = List.copyOf(threads);
        modules = List.copyOf(modules);
    }

    public RunTables withMetadata(Metadata m) {
        return new RunTables(m, threads, modules, stats);
    }

    public static RunTables of(Recording r) {
        return new RunTables(r.metadata(), r.threads(), r.modules(), r.stats());
    }

    /** The profile's threads are numbered below this: the highest thread number anywhere, plus one. */
    public int threadSpan(
            org.ompprof.calltree.CallingContextTree tree, List<org.ompprof.calltree.profile.Timeline> timelines) {
        int highest = -1;
        for (ThreadInfo t : threads) highest = Math.max(highest, t.seq());
        for (int t : tree.threads()) highest = Math.max(highest, t);
        for (var t : timelines) highest = Math.max(highest, t.thread());
        return (int) Math.max(highest + 1L, metadata.getLong(THREAD_SPAN, 0));
    }

    /**
     * A merged profile's thread span, kept in its metadata: its last input's highest threads
     * may have left no trace in the tables, and the next merge must count them all the same.
     */
    public static final String THREAD_SPAN = "thread_span";
}
