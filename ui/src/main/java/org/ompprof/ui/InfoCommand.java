package org.ompprof.ui;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.FrameTable;
import org.ompprof.calltree.Metric;
import org.ompprof.calltree.build.DisplayNames;
import org.ompprof.calltree.merge.JobRanks;
import org.ompprof.calltree.merge.ProfileDiffer;
import org.ompprof.calltree.merge.RunMetadata;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.ProfileReader;
import org.ompprof.sampler.UserError;
import org.ompprof.sampler.launch.DurationArg;
import org.ompprof.sampler.launch.RecordOptions;
import org.ompprof.sampler.launch.SamplingSignal;
import org.ompprof.sampler.omp.OmpState;
import org.ompprof.sampler.omp.ThreadType;
import org.ompprof.sampler.recording.HandlerHistogram;
import org.ompprof.sampler.recording.ImageSource;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.ModuleInfo;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.Stats;
import org.ompprof.sampler.recording.ThreadInfo;
import org.ompprof.sampler.wire.Wire;
import org.ompprof.ui.report.DeviceTotals;
import org.ompprof.ui.report.OffloadNote;
import org.ompprof.ui.report.Report;
import org.ompprof.unwinder.clock.Stage;
import org.ompprof.unwinder.stitch.RecursionFold;
import org.ompprof.unwinder.stitch.StitchCounters;
import org.ompprof.unwinder.stitch.StitchedSample;

/**
 * {@code ompprof info FILE}: what a recording holds, without analysing it: the run, the threads
 * with their samples per OpenMP state, what was lost, and what sampling cost.
 */
public final class InfoCommand {
    static final String USAGE = """
            usage: ompprof info FILE

            Prints what the recording FILE holds: the command and settings, the OpenMP runtime,
            a table of threads with their samples per OpenMP state, dropped records, the cost
            of the signal handler, what ompprof itself cost (its CPU time while the program ran
            and after, its peak heap, the profile build's time per stage) and the modules whose
            images were captured. For a detailed look at ompprof's own cost, record with
            --self-profile FILE.jfr.
            """;

    private InfoCommand() {}

    public static int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        if (args.contains("--help") || args.contains("-h")) {
            out.print(USAGE);
            return 0;
        }
        if (args.size() != 1) throw new UserError("info: give exactly one recording; usage: ompprof info FILE");
        Path file = Path.of(args.getFirst());
        if (Files.isDirectory(file)) throw new UserError("info: " + file + " is a directory, not a recording");
        try (Recording r = Recording.open(file)) {
            out.print(report(r, Files.size(file)));
        }
        AotTraining.workDone();
        return 0;
    }

    static String report(Recording r, long fileSize) {
        StringBuilder s = new StringBuilder();
        run(s, r, fileSize);
        threads(s, r.threads(), JobRanks.of(r.metadata()));
        profile(s, r, fileSize);
        drops(s, r.threads(), r.stats(), r.metadata());
        handler(s, r.stats());
        collector(s, r.metadata());
        modules(s, r.modules(), r.stats());
        return s.toString();
    }

    private static void run(StringBuilder s, Recording r, long fileSize) {
        Metadata m = r.metadata();
        line(
                s,
                r.isProfile() ? "profile" : "recording",
                r.path() + " (" + size(fileSize) + ", format " + r.formatVersion()
                        + (r.isProfile() ? ")" : ", raw samples)"));
        merged(s, m);
        m.get(ProfileDiffer.BASE_FILE)
                .ifPresent(base -> line(
                        s,
                        "diff",
                        "this run (B) against the base " + base + " (A): metrics a.* hold A, delta.* hold B - A"));
        line(s, "command", m.get(Metadata.COMMAND, "?"));
        line(s, "directory", m.get(Metadata.CWD, "?"));
        boolean merged = m.getLong(RunMetadata.INPUTS, -1) >= 0; // a merge's runs each have their start and duration
        if (!merged)
            line(
                    s,
                    "started",
                    m.get(Metadata.START_TIME, "?") + " on " + m.get(Metadata.HOST, "?") + ", pid "
                            + m.get(Metadata.PID, "?"));
        m.get(Metadata.MPI_RANK)
                .ifPresent(rank -> line(
                        s,
                        "mpi",
                        "rank " + rank
                                + m.get(Metadata.MPI_WORLD_SIZE)
                                        .map(n -> " of " + n)
                                        .orElse("")
                                + m.get(Metadata.JOB_ID).map(j -> ", job " + j).orElse("")));
        m.get(Metadata.MPI_CALLS).ifPresent(calls -> line(s, "mpi calls", calls));
        line(
                s,
                "sampling",
                m.get(Metadata.MODE, "?") + " time, " + m.get(Metadata.RATE_HZ, "?") + " Hz per thread asked"
                        + achievedRate(m) + ", stack snapshots up to " + m.get(Metadata.STACK_BYTES, "?") + " bytes"
                        + (m.flag(Metadata.START_PAUSED)
                                ? "; started paused, scoped by the program's omp_control_tool calls"
                                : ""));
        cpuClock(m).ifPresent(c -> line(s, "cpu clock", c));
        wallClock(m).ifPresent(c -> line(s, "wall clock", c));
        taskViews(m).ifPresent(c -> line(s, "task views", c));
        line(s, "runtime", runtime(m));
        signal(s, m);
        if (!merged)
            line(
                    s,
                    "duration",
                    String.format(
                            Locale.ROOT,
                            "%.2f s, exit status %s",
                            m.getLong(Metadata.WALL_NS, 0) / 1e9,
                            m.get(Metadata.EXIT_STATUS, "?")));
        line(
                s,
                "ompprof",
                m.get(Metadata.OMPPROF_VERSION, "?")
                        + (m.flag(Metadata.GOMP_SHIM) ? " (GCC program run on libomp)" : ""));
        s.append('\n');
    }

    /**
     * How wall mode sampled: blocked threads from outside (their calls untouched), threads waiting in the runtime
     * by the sampler's signal, running ones by their own CPU clocks.
     */
    private static java.util.Optional<String> wallClock(Metadata m) {
        if (m.get(Metadata.WALL_OUTSIDE).isEmpty()) return java.util.Optional.empty();
        return java.util.Optional.of(String.format(
                Locale.ROOT,
                "%d samples of blocked threads taken from outside, %d signals (to threads waiting in the runtime,"
                        + " or running without a CPU-clock sample for two periods); %d signals found the thread just"
                        + " blocked: %d calls restarted, %d returned EINTR; %d samples sent as a repeat of the one"
                        + " before (the thread still waiting where it was); %d ticks left, the sampler late to them"
                        + " (each thread's next sample stands for their time)",
                m.getLong(Metadata.WALL_OUTSIDE, 0),
                m.getLong(Metadata.WALL_SIGNALLED, 0),
                m.getLong(Metadata.WALL_RESTARTED, 0) + m.getLong(Metadata.WALL_INTERRUPTED, 0),
                m.getLong(Metadata.WALL_RESTARTED, 0),
                m.getLong(Metadata.WALL_INTERRUPTED, 0),
                m.getLong(Metadata.REPEATED_SAMPLES, 0),
                m.getLong(Metadata.WALL_LATE_TICKS, 0)));
    }

    /**
     * Wall mode: how the agent made the views of the tasks threads switched to (what the wall sampler needs to sample
     * a thread blocked in a task): by asking the runtime, or from the task's data once the runtime's answers showed
     * where it keeps a task's frame.
     */
    private static java.util.Optional<String> taskViews(Metadata m) {
        String layout = m.get(Metadata.TASK_FRAME_LAYOUT, "");
        long count = m.getLong(Metadata.TASK_VIEWS_ASKED, 0);
        if (layout.isEmpty() || (count == 0 && layout.equals(Wire.taskFrameName(Wire.TASK_FRAME_ASKED))))
            return java.util.Optional.empty(); // no switches
        String asked = String.format(Locale.ROOT, "%,d asked of the runtime", count);
        if (layout.equals(Wire.taskFrameName(Wire.TASK_FRAME_FOUND)))
            return java.util.Optional.of(asked + " (to learn, then check, that a task's frame lies by its data); the"
                    + " others made from the tasks' data");
        if (layout.equals(Wire.taskFrameName(Wire.TASK_FRAME_REFUTED)))
            return java.util.Optional.of(
                    asked + ", all of them: an answer put a task's frame elsewhere than by its data");
        return java.util.Optional.of(asked + ", all of them (too few answers to learn where a task's frame lies)");
    }

    /** ", 998 Hz achieved (...)": per thread, samples per second of the time they stand for. */
    static String achievedRate(Metadata m) {
        if (m.get(Metadata.ACHIEVED_RATE_HZ).isEmpty()) return "";
        String per = "cpu".equals(m.get(Metadata.MODE, "")) ? "CPU-second" : "second";
        long threads = m.getLong(Metadata.ACHIEVED_RATE_THREADS, 0);
        String median = m.get(Metadata.ACHIEVED_RATE_HZ, "?"), lowest = m.get(Metadata.ACHIEVED_RATE_LOWEST_HZ, median);
        return String.format(
                Locale.ROOT,
                ", %.0f Hz achieved (samples per %s per thread%s)",
                Double.parseDouble(median),
                per,
                threads > 1
                        ? String.format(
                                Locale.ROOT, ": median of %d threads, lowest %.0f", threads, Double.parseDouble(lowest))
                        : "");
    }

    /** cpu mode: what delivered the samples, and what to do when it was the slow timers. */
    static java.util.Optional<String> cpuClock(Metadata m) {
        if (!"cpu".equals(m.get(Metadata.MODE, ""))
                || m.get(Metadata.PERF_SAMPLES).isEmpty()) return java.util.Optional.empty();
        long perf = m.getLong(Metadata.PERF_SAMPLES, 0);
        if (perf > 0)
            return java.util.Optional.of(
                    "perf cpu-clock events (" + String.format(Locale.ROOT, "%,d", perf) + " samples)" + moved(m));
        return java.util.Optional.of(
                m.flag(Metadata.CPU_TIMERS_ASKED)
                        ? "CPU-clock timers (--cpu-timers); they fire at the kernel's tick"
                        : "CPU-clock timers, which fire at the kernel's tick: the kernel refused perf events "
                                + "(perf_event_paranoid "
                                + "above 2, or a container's seccomp); allow them (sysctl "
                                + "kernel.perf_event_paranoid=2) for the asked rate");
    }

    /** "; 3 threads moved to CPU-clock timers ...": threads that switched too often for their perf events. */
    private static String moved(Metadata m) {
        long moved = m.getLong(Metadata.CPU_MOVED_THREADS, 0);
        if (moved == 0) return "";
        return String.format(
                Locale.ROOT,
                "; %d thread%s moved to CPU-clock timers, switching over %,d times per CPU-second (%,d samples, at the"
                        + " kernel's tick)",
                moved,
                moved == 1 ? "" : "s",
                m.getLong(Metadata.CPU_SWITCH_LIMIT, 0),
                m.getLong(Metadata.CPU_TIMER_SAMPLES, 0));
    }

    /** The runs of a merged profile, one line each; their full metadata is under input.N.*. */
    private static void merged(StringBuilder s, Metadata m) {
        long runs = m.getLong(RunMetadata.INPUTS, -1);
        if (runs < 0) return;
        line(s, "merged", runs + " runs (threads renumbered; thread t of run N is t + its offset)");
        for (long i = 0; i < runs; i++) {
            String p = RunMetadata.PREFIX + i + ".";
            String rank = m.get(p + Metadata.MPI_RANK)
                    .map(r -> " (rank " + r + " on " + m.get(p + Metadata.HOST, "?") + ")")
                    .orElse("");
            String took = m.get(p + Metadata.WALL_NS)
                    .map(ns -> String.format(Locale.ROOT, ", %.2f s", Long.parseLong(ns) / 1e9))
                    .orElse("");
            line(
                    s,
                    "  run " + i,
                    m.get(p + RunMetadata.SOURCE, "?") + rank + ": " + m.get(p + Metadata.COMMAND, "?") + took
                            + ", exit status " + m.get(p + Metadata.EXIT_STATUS, "?") + ", thread offset "
                            + m.get(p + RunMetadata.THREAD_OFFSET, "?"));
        }
    }

    /** The sampling signal when it was not SIGPROF, and what stood in its way (recorded by the agent). */
    private static void signal(StringBuilder s, Metadata m) {
        String name = m.get(Metadata.SIGNAL, "SIGPROF");
        int signal;
        try {
            signal = SamplingSignal.parse(name);
        } catch (UserError e) {
            return; // a name this ompprof does not know: nothing to add
        }
        List<String> problems = SamplingSignal.problems(
                signal, (int) m.getLong(Metadata.SIGNAL_PROBLEMS, 0), m.getLong(Metadata.FOREIGN_SIGNALS, 0));
        if (!name.equals("SIGPROF") || !problems.isEmpty()) line(s, "signal", name);
        for (String p : problems) line(s, "", p);
    }

    private static String runtime(Metadata m) {
        if (!m.flag(Metadata.OMPT_CONNECTED)) return "no OpenMP runtime with OMPT connected: nothing was sampled";
        String version = m.get(Metadata.RUNTIME_VERSION, "");
        return (version.isEmpty() ? "unknown OpenMP runtime" : version)
                + m.get(Metadata.OMPT_VERSION).map(v -> " (OMPT " + v + ")").orElse("");
    }

    /** In a job profile ({@code ranks} not empty) the threads are named rank.thread, as report names them. */
    private static void threads(StringBuilder s, List<ThreadInfo> threads, JobRanks ranks) {
        TreeSet<Integer> states = new TreeSet<>((a, b) -> Integer.compare(OmpState.order(a), OmpState.order(b)));
        for (ThreadInfo t : threads) states.addAll(t.samplesByState().keySet());
        List<String> header = new ArrayList<>(List.of("thread", "tid", "type", "samples", "dropped"));
        for (int st : states) header.add(OmpState.nameOf(st));
        List<List<String>> rows = new ArrayList<>();
        long[] total = new long[2 + states.size()];
        for (ThreadInfo t : threads) {
            List<String> row = new ArrayList<>(List.of(
                    ranks.label(t.seq()),
                    t.osTid() == 0 ? "-" : Integer.toString(t.osTid()),
                    ThreadType.nameOf(t.threadType()),
                    count(t.samples()),
                    count(t.samplesDropped() + t.eventsDropped())));
            total[0] += t.samples();
            total[1] += t.samplesDropped() + t.eventsDropped();
            int i = 2;
            for (int st : states) {
                long n = t.samplesByState().getOrDefault(st, 0L);
                row.add(count(n));
                total[i++] += n;
            }
            rows.add(row);
        }
        List<String> totals = new ArrayList<>(List.of("total", "", "", count(total[0]), count(total[1])));
        for (int i = 2; i < total.length; i++) totals.add(count(total[i]));
        rows.add(totals);
        s.append("threads (").append(threads.size());
        if (!ranks.isEmpty()) s.append("; rank.thread");
        s.append("), samples per OpenMP state as the runtime reported it\n");
        table(s, header, rows);
        s.append('\n');
    }

    /** What the file holds beyond the tables: the profile and how its samples were stitched, or raw samples. */
    /**
     * The profile's time per state, the one story report, exports and the viewer tell: the table
     * above counts the states the runtime reported, and libomp reports a thread waiting in a
     * taskwait or at a taskgroup's end, or creating and scheduling tasks in its own code, as working.
     */
    private static void states(StringBuilder s, CallingContextTree tree) {
        List<String> parts = new ArrayList<>();
        long taskWaiting = 0, taskScheduling = 0;
        for (Metric m : Report.stateMetrics(tree)) {
            long v = tree.total(m.index());
            String state = m.name().substring("time.".length());
            parts.add(state + " " + Report.time(v));
            if (state.equals(OmpState.WAIT_TASKWAIT.displayName())
                    || state.equals(OmpState.WAIT_TASKGROUP.displayName())) taskWaiting += v;
            if (state.equals(OmpState.TASK_SCHEDULING.displayName())) taskScheduling += v;
        }
        if (parts.isEmpty()) return;
        s.append("  time per state (as report, exports and the viewer count it): ")
                .append(String.join(", ", parts))
                .append('\n');
        if (taskWaiting > 0) {
            s.append("  the runtime reported task waiting as work: samples inside its taskwait or taskgroup are "
                    + "counted as waiting\n");
        }
        if (taskScheduling > 0) {
            s.append("  the runtime reported its task code as work: samples inside its task creation and scheduling "
                            + "entries are counted as ")
                    .append(OmpState.TASK_SCHEDULING.displayName())
                    .append('\n');
        }
    }

    /**
     * Frames the profile shows otherwise than their compiler named them: OpenMP constructs (with their symbols), and
     * how many others. Only frames of the tree: a debug body shown as one frame with its wrapper is not listed apart.
     */
    private static void names(StringBuilder s, CallingContextTree tree) {
        FrameTable frames = tree.frames();
        boolean[] shown = new boolean[frames.size()];
        for (int n = 1; n < tree.size(); n++) shown[tree.frame(n)] = true;
        List<String> constructs = new ArrayList<>();
        int others = 0, agent = 0;
        for (int i = 0; i < frames.size(); i++) {
            if (!shown[i]) continue;
            Frame f = frames.frame(i);
            if (f.symbol() == null) {
                if (f.kind() == FrameKind.PLACEHOLDER && "<ompprof>".equals(f.function())) agent++;
                continue;
            }
            if (DisplayNames.isOutlined(f.symbol())) {
                constructs.add("  " + f.function() + "  =  " + f.symbol() + "\n");
            } else {
                others++;
            }
        }
        if (constructs.isEmpty() && others == 0 && agent == 0) return;
        s.append("names (as the program's source writes them; the compiler's symbols here and on hover in the "
                + "viewer)\n");
        constructs.stream().sorted().distinct().limit(40).forEach(s::append);
        if (constructs.size() > 40)
            s.append("  ... ").append(constructs.size() - 40).append(" more outlined bodies\n");
        if (others > 0)
            s.append("  ")
                    .append(count(others))
                    .append(" other functions shown demangled (C++) or as module::procedure (Fortran)\n");
        if (agent > 0)
            s.append("  samples taken inside ompprof's own agent are under <ompprof> (profiler overhead), never "
                    + "under the program's code\n");
        s.append('\n');
    }

    private static void profile(StringBuilder s, Recording r, long fileSize) {
        if (!r.isProfile()) {
            s.append("raw recording: stack snapshots and callback records (export and report build the profile "
                    + "from them)\n\n");
            return;
        }
        Profile p = ProfileReader.read(r);
        s.append("profile\n");
        for (String u :
                UnnamedFrames.lines(UnnamedFrames.count(p.tree().frames(), r.modules()), DebianPackages::owner)) {
            s.append("  ").append(u).append('\n');
        }
        s.append("  ")
                .append(count(p.tree().size() - 1L))
                .append(" calling contexts over ")
                .append(count(p.tree().frames().size()))
                .append(" frames; ")
                .append(count(p.samples()))
                .append(" samples in ")
                .append(p.timelines().size())
                .append(" thread timelines");
        if (p.samples() > 0)
            s.append(String.format(
                    Locale.ROOT, " (%.1f bytes per sample in this file)", (double) fileSize / p.samples()));
        s.append('\n');
        long resolution = r.metadata().getLong(Metadata.TIMELINE_RESOLUTION_NS, 0);
        if (resolution > 0) {
            long entries = p.timelines().stream().mapToLong(t -> t.size()).sum();
            s.append("  timelines downsampled: one entry per thread per ")
                    .append(DurationArg.format(resolution))
                    .append(" (")
                    .append(count(entries))
                    .append(" entries)\n");
        }
        StitchCounters c = p.counters();
        List<String> kinds = new ArrayList<>();
        for (StitchedSample.Kind k : StitchedSample.Kind.values()) {
            if (c.samples(k) > 0)
                kinds.add(count(c.samples(k)) + " "
                        + k.name().toLowerCase(Locale.ROOT).replace('_', ' '));
        }
        s.append("  stitched: ")
                .append(kinds.isEmpty() ? "no samples" : String.join(", ", kinds))
                .append('\n');
        truncationAdvice(s, c, r.metadata().getLong(Metadata.STACK_BYTES, 0));
        states(s, p.tree());
        s.append("  creation contexts: ")
                .append(count(c.regions()))
                .append(" parallel regions, ")
                .append(count(c.tasks()))
                .append(" explicit tasks, ")
                .append(count(c.distinctContexts()))
                .append(" distinct");
        if (c.foldedContexts() > 0)
            s.append("; ")
                    .append(count(c.foldedContexts()))
                    .append(" creations in task recursion deeper than ")
                    .append(count(RecursionFold.FROM_FRAMES))
                    .append(" frames folded onto a level above");
        if (c.unknownContexts() > 0)
            s.append("; ")
                    .append(count(c.unknownContexts()))
                    .append(" samples in a region or task whose creation was not recorded");
        s.append("\n\n");
        names(s, p.tree());
        DeviceTotals devices = DeviceTotals.of(p.devices());
        if (!devices.isEmpty()) {
            s.append("devices (target regions, kernels and transfers; times on the host clock)\n")
                    .append(devices.table());
            if (p.devices().unmatched() > 0) {
                s.append("  ")
                        .append(count(p.devices().unmatched()))
                        .append(" device operations began and never ended (lost records or a crash)\n");
            }
            if (p.devices().late() > 0)
                s.append("  ").append(count(p.devices().late())).append(" device records arrived out of order\n");
            s.append('\n');
        }
        OffloadNote.of(r.metadata(), r.modules(), p.devices())
                .ifPresent(note -> s.append("devices\n  ").append(note).append("\n\n"));
    }

    private static void drops(StringBuilder s, List<ThreadInfo> threads, Stats st, Metadata m) {
        long samples = threads.stream().mapToLong(ThreadInfo::samplesDropped).sum();
        long events = threads.stream().mapToLong(ThreadInfo::eventsDropped).sum();
        s.append("dropped\n");
        s.append("  ring full:          ")
                .append(count(samples))
                .append(" samples, ")
                .append(count(events))
                .append(" callback records");
        List<String> worst = new ArrayList<>();
        for (ThreadInfo t : threads) {
            if (t.samplesDropped() + t.eventsDropped() > 0)
                worst.add("thread " + t.seq() + ": " + count(t.samplesDropped() + t.eventsDropped()));
        }
        if (!worst.isEmpty())
            s.append(" (")
                    .append(String.join(", ", worst.subList(0, Math.min(8, worst.size()))))
                    .append(worst.size() > 8 ? ", ..." : "")
                    .append(')');
        s.append('\n');
        s.append("  no free slot:       ")
                .append(count(st.noSlotDrops()))
                .append(" records")
                .append(st.noSlotDrops() > 0 ? " (raise --slots)" : "")
                .append('\n');
        s.append("  malformed:          ")
                .append(count(st.malformed()))
                .append(" stretches skipped")
                .append('\n');
        for (String example : st.malformedExamples())
            s.append("    ").append(example).append('\n');
        s.append("  sampling paused:    ")
                .append(count(st.disabledSignals()))
                .append(" signals")
                .append('\n');
        mutexes(s, st);
        ringPeaks(s, st, m);
        s.append('\n');
    }

    /**
     * Truncated samples are those whose stack ran past the bytes copied where the agent's own walk stopped: a frame
     * of code it has no unwind rows for that is larger than the copy (OpenBLAS's Haswell dgemm kernel keeps 29 kB), or
     * a stack deeper than the walk goes. A larger copy reaches their callers.
     */
    private static void truncationAdvice(StringBuilder s, StitchCounters c, long stackBytes) {
        long truncated = c.samples(StitchedSample.Kind.TRUNCATED);
        if (truncated == 0 || stackBytes <= 0) return;
        s.append("  truncated: ")
                .append(count(truncated))
                .append(" samples' stacks ran past the ")
                .append(count(stackBytes))
                .append(" bytes copied");
        if (stackBytes < RecordOptions.MAX_STACK_BYTES)
            s.append(" (record with --stack-bytes ")
                    .append(RecordOptions.MAX_STACK_BYTES)
                    .append(" to copy more)");
        s.append('\n');
    }

    /**
     * Lock, critical, ordered and atomic events not written: an uncontended acquisition costs no
     * record, only waits that were sampled and the holds they fell in are written (not a loss).
     */
    private static void mutexes(StringBuilder s, Stats st) {
        if (st.mutexSkipped() == 0 && st.mutexMarked() == 0 && st.mutexTableFull() == 0)
            return; // none, or an older recording
        s.append("  lock events:        ")
                .append(count(st.mutexSkipped()))
                .append(" uncontended skipped (not lost: nobody waited), ")
                .append(count(st.mutexMarked()))
                .append(" samples inside a lock acquisition (their holders write their holds)");
        if (st.mutexTableFull() > 0)
            s.append(", ").append(count(st.mutexTableFull())).append(" with the contended-lock table full");
        s.append('\n');
    }

    /** How near the rings came to full: a record is dropped when it does not fit. */
    private static void ringPeaks(StringBuilder s, Stats st, Metadata m) {
        if (st.sampleRingPeak() == 0 && st.eventRingPeak() == 0) return; // not measured (older recordings)
        long sampleRing = m.getLong(Metadata.SAMPLE_RING_BYTES, 0);
        s.append("  peak ring fill:     samples ")
                .append(fill(st.sampleRingPeak(), sampleRing))
                .append(", callback records ")
                .append(fill(st.eventRingPeak(), m.getLong(Metadata.EVENT_RING_BYTES, 0)));
        long eventRing = m.getLong(Metadata.EVENT_RING_BYTES, 0);
        List<String> raise = new ArrayList<>();
        if (sampleRing > 0 && st.sampleRingPeak() * 2 > sampleRing) raise.add("--ring-kib");
        if (eventRing > 0 && st.eventRingPeak() * 2 > eventRing) raise.add("--event-ring-kib");
        if (!raise.isEmpty())
            s.append(" (raise ").append(String.join(" and ", raise)).append(')');
        s.append('\n');
    }

    private static String fill(long peak, long ring) {
        if (ring <= 0) return size(peak);
        return size(peak) + " of " + size(ring) + String.format(Locale.ROOT, " (%.0f%%)", 100.0 * peak / ring);
    }

    private static void handler(StringBuilder s, Stats st) {
        HandlerHistogram h = st.histogram();
        s.append("signal handler cost (measured in the agent)\n");
        if (st.handlerCalls() == 0) {
            s.append("  no samples taken\n\n");
            return;
        }
        s.append("  ")
                .append(count(st.handlerCalls()))
                .append(" calls, mean ")
                .append(count(st.handlerNs() / st.handlerCalls()))
                .append(" ns");
        if (h.total() > 0) {
            s.append(", median ")
                    .append(count(h.quantileNs(0.5)))
                    .append(" ns, p99 ")
                    .append(count(h.quantileNs(0.99)))
                    .append(" ns, max ")
                    .append(count(h.maxNs()))
                    .append(" ns (histogram bucket bounds)");
        }
        s.append('\n');
        if (st.sampleBytes() > 0) {
            s.append("  ")
                    .append(count(st.sampleBytes() / st.handlerCalls()))
                    .append(" bytes per sample in the rings (")
                    .append(size(st.sampleBytes()))
                    .append(" in all: registers, OpenMP levels, walked frames, stack slices)\n");
        }
        if (st.reentered() > 0)
            s.append("  ").append(count(st.reentered())).append(" signals arrived while the handler was running\n");
        s.append('\n');
    }

    /** What ompprof itself cost, as the recording measured it (older recordings did not: nothing is shown). */
    private static void collector(StringBuilder s, Metadata m) {
        long atStart = m.getLong(Metadata.COLLECTOR_CPU_AT_START_NS, -1);
        long atEnd = m.getLong(Metadata.COLLECTOR_CPU_AT_END_NS, -1);
        long atProfile = m.getLong(Metadata.COLLECTOR_CPU_AT_PROFILE_NS, -1);
        long heap = m.getLong(Metadata.COLLECTOR_PEAK_HEAP_BYTES, -1);
        long buildWall = m.getLong(Metadata.BUILD_WALL_NS, -1);
        if (atEnd < 0 && heap < 0 && buildWall < 0) return;
        s.append("collector cost (the ompprof JVM, all its threads)\n");
        List<String> cpu = new ArrayList<>();
        if (atStart >= 0) cpu.add(seconds(atStart) + " starting up");
        if (atStart >= 0 && atEnd >= atStart) {
            long wall = m.getLong(Metadata.WALL_NS, 0);
            cpu.add(seconds(atEnd - atStart) + " while the program ran"
                    + (wall > 0
                            ? String.format(
                                    Locale.ROOT,
                                    " (%.1f%% of one core over its %s)",
                                    100.0 * (atEnd - atStart) / wall,
                                    seconds(wall))
                            : ""));
        }
        if (atEnd >= 0 && atProfile >= atEnd) cpu.add(seconds(atProfile - atEnd) + " building the profile");
        if (!cpu.isEmpty())
            s.append("  CPU time:           ").append(String.join(", ", cpu)).append('\n');
        if (heap > 0)
            s.append("  peak heap:          ").append(size(heap)).append(" (the heap pools' peaks added up)\n");
        long rss = m.getLong(Metadata.COLLECTOR_PEAK_RSS_BYTES, -1);
        if (rss > 0)
            s.append("  peak RSS:           ").append(size(rss)).append(" (resident memory, when the program ended)\n");
        if (buildWall >= 0) {
            s.append("  profile build:      ").append(seconds(buildWall)).append(" wall, by stage:\n");
            List<List<String>> rows = new ArrayList<>();
            for (Stage st : Stage.values()) {
                long ns = m.getLong(Metadata.BUILD_STAGE_NS + st.key(), -1);
                if (ns < 0) continue;
                long items = m.getLong(Metadata.BUILD_STAGE_ITEMS + st.key(), 0);
                rows.add(List.of(
                        st.key(),
                        seconds(ns),
                        buildWall > 0 ? String.format(Locale.ROOT, "%.0f%%", 100.0 * ns / buildWall) : "",
                        st == Stage.WRITE ? size(items) : count(items) + " " + st.items()));
            }
            for (List<String> r : rows) {
                s.append(
                        String.format(Locale.ROOT, "    %-10s %9s %5s   %s%n", r.get(0), r.get(1), r.get(2), r.get(3)));
            }
        }
        s.append('\n');
    }

    private static String seconds(long ns) {
        return String.format(Locale.ROOT, "%.2f s", ns / 1e9);
    }

    private static void modules(StringBuilder s, List<ModuleInfo> modules, Stats st) {
        Map<ImageSource, Long> by = new EnumMap<>(ImageSource.class);
        long embeddedBytes = 0;
        for (ModuleInfo m : modules) {
            by.merge(m.image(), 1L, Long::sum);
            if (m.image() == ImageSource.EMBEDDED) embeddedBytes += m.imageLength();
        }
        s.append("modules (").append(modules.size()).append(")\n");
        s.append("  ")
                .append(by.getOrDefault(ImageSource.EMBEDDED, 0L))
                .append(" images in the recording (")
                .append(size(embeddedBytes))
                .append("), ")
                .append(by.getOrDefault(ImageSource.REFERENCE, 0L))
                .append(" system files referenced, ")
                .append(by.getOrDefault(ImageSource.MISSING, 0L))
                .append(" not captured");
        if (by.containsKey(ImageSource.USED))
            s.append(", ")
                    .append(by.get(ImageSource.USED))
                    .append(" captured and used for the profile (images not kept)");
        s.append('\n');
        for (String miss : st.modulesNotCaptured())
            s.append("  module image not captured: ").append(miss).append('\n');
    }

    /** Left-aligned text columns, right-aligned number columns. */
    private static void table(StringBuilder s, List<String> header, List<List<String>> rows) {
        int[] width = new int[header.size()];
        for (int i = 0; i < width.length; i++) width[i] = header.get(i).length();
        for (List<String> r : rows)
            for (int i = 0; i < width.length; i++)
                width[i] = Math.max(width[i], r.get(i).length());
        tableRow(s, header, width);
        for (List<String> r : rows) tableRow(s, r, width);
    }

    private static void tableRow(StringBuilder s, List<String> cells, int[] width) {
        StringBuilder line = new StringBuilder(" ");
        for (int i = 0; i < cells.size(); i++) {
            String c = cells.get(i);
            boolean text = i == 2;
            line.append(' ').append(text ? pad(c, width[i], false) : pad(c, width[i], true));
        }
        s.append(line.toString().stripTrailing()).append('\n');
    }

    private static String pad(String c, int w, boolean right) {
        String fill = " ".repeat(Math.max(0, w - c.length()));
        return right ? fill + c : c + fill;
    }

    private static void line(StringBuilder s, String key, String value) {
        s.append(String.format(Locale.ROOT, "%-10s %s\n", key, value));
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    private static String size(long bytes) {
        if (bytes < 1000) return bytes + " B";
        if (bytes < 1_000_000) return String.format(Locale.ROOT, "%.1f kB", bytes / 1e3);
        if (bytes < 1_000_000_000) return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
        return String.format(Locale.ROOT, "%.1f GB", bytes / 1e9);
    }
}
