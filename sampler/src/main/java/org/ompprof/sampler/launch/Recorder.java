package org.ompprof.sampler.launch;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.ompprof.sampler.UserError;
import org.ompprof.sampler.collect.DrainWarmup;
import org.ompprof.sampler.collect.Drainer;
import org.ompprof.sampler.collect.RecordingBuilder;
import org.ompprof.sampler.collect.RunCollector;
import org.ompprof.sampler.collect.SamplingRate;
import org.ompprof.sampler.collect.Spool;
import org.ompprof.sampler.posix.Posix;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.ring.Region;
import org.ompprof.sampler.ring.RegionLayout;
import org.ompprof.sampler.ring.StaleRegions;
import org.ompprof.sampler.wire.Wire;

/**
 * {@code ompprof record}: checks everything that can be checked up front, runs the program with
 * the agent attached through OMPT, drains the rings while it runs and writes the recording when
 * it ends, however it ends. Returns the program's exit status (128+signal if it was killed).
 */
public final class Recorder {
    static final String NO_OMPT =
            "no OpenMP runtime with OMPT connected (is the program built with -fopenmp " + "and running on libomp?)";
    private static final long PROGRESS_INTERVAL_MS = 250;
    static final String AUDIT_LIBRARY = "libompprof-audit.so";

    /**
     * What a recording needs from its surroundings; tests substitute their own.
     *
     * @param properties system properties (ompprof.agent, ompprof.root, ompprof.libomp)
     * @param liveProgress whether stderr is a terminal that can take a live progress line
     * @param shmDir where the shared-memory file goes (/dev/shm)
     */
    public record Context(
            Path cwd,
            Map<String, String> env,
            Function<String, String> properties,
            String ompprofVersion,
            PrintStream out,
            PrintStream err,
            boolean liveProgress,
            Path shmDir) {
        public static Context system(String ompprofVersion, PrintStream out, PrintStream err) {
            boolean terminal = err == System.err && stderrIsTerminal() && !"dumb".equals(System.getenv("TERM"));
            return new Context(
                    Path.of("").toAbsolutePath(),
                    System.getenv(),
                    System::getProperty,
                    ompprofVersion,
                    out,
                    err,
                    terminal,
                    Region.DEFAULT_DIR);
        }

        /**
         * Whether stderr is a terminal: as the launcher found it (ompprof.stderr.terminal), which spares the start
         * the FFM linker's first use (20-40 ms before the program could start), else as libc's isatty says.
         */
        static boolean stderrIsTerminal() {
            String told = System.getProperty("ompprof.stderr.terminal");
            return told != null ? Boolean.parseBoolean(told) : Posix.isatty(2);
        }
    }

    /** Everything decided before the program starts. */
    record Plan(
            List<String> typedCommand,
            ProgramStart start,
            Path program,
            OutputTarget output,
            Path agent,
            LibraryShim libraries,
            RegionLayout layout,
            boolean keepRaw,
            int signal,
            Optional<JobRank> rank,
            MpiCompanion mpi) {}

    private final Context ctx;
    private final RecordingFinisher finisher;

    /** A recorder that writes the raw recording itself as the output. */
    public Recorder(Context ctx) {
        this(ctx, null);
    }

    /** A recorder that hands the raw recording to {@code finisher} to make the output. */
    public Recorder(Context ctx, RecordingFinisher finisher) {
        this.ctx = ctx;
        this.finisher = finisher;
    }

    public int record(RecordOptions options) throws IOException, InterruptedException {
        return record(options, DrainWarmup.start());
    }

    /** As {@link #record(RecordOptions)}, with the drain path's warm-up already begun. */
    public int record(RecordOptions options, DrainWarmup warmup) throws IOException, InterruptedException {
        try {
            return execute(plan(options), warmup);
        } finally {
            warmup.await();
        }
    }

    /** All the checks; nothing is created yet. */
    Plan plan(RecordOptions o) throws InterruptedException {
        Path program = ProgramResolver.resolve(o.command().getFirst(), ctx.env().get("PATH"), ctx.cwd());
        Optional<JobRank> rank = JobRank.from(ctx.env());
        OutputTarget output = OutputTarget.choose(o.output(), program, ctx.cwd(), rank);
        Path agent = Toolchain.agent(ctx.properties(), ctx.cwd());
        RegionLayout layout = layout(o);
        LoadedLibraries loaded = LoadedLibraries.of(program, ctx.env());
        LibraryShim libraries = LibraryShim.plan(loaded, () -> Toolchain.libomp(ctx.properties()));
        ProgramStart start = ProgramStart.plan(
                o.command(),
                program,
                agent,
                ctx.properties(),
                ctx.env().get("PATH"),
                System.getenv("PATH"),
                Path.of("/proc/self/status"));
        return new Plan(
                o.command(),
                start,
                program,
                output,
                agent,
                libraries,
                layout,
                o.keepRaw(),
                o.signal(),
                rank,
                MpiCompanion.plan(loaded, agent));
    }

    static RegionLayout layout(RecordOptions o) {
        long biggestSample = Wire.RecordHeader.SIZEOF
                + Wire.Sample.SIZEOF
                + (long) Wire.MAX_LEVELS * (Wire.TaskLevel.SIZEOF + Wire.ParallelLevel.SIZEOF)
                + Wire.RBX_BYTES
                + 2L * o.stackBytes() // the snapshot and a second window (Wire.SAMPLE_UPPER)
                + Wire.UpperWindow.SIZEOF;
        long ring = o.ringKib() * 1024L;
        if (ring < 4 * biggestSample) {
            long need = Long.highestOneBit(4 * biggestSample / 1024 - 1) * 2;
            throw new UserError("--ring-kib " + o.ringKib() + " is too small for --stack-bytes " + o.stackBytes()
                    + "; use at least " + need);
        }
        long eventRing = Math.max(o.eventRingKib() * 1024L, Long.highestOneBit(8 * biggestSample - 1) * 2);
        return new RegionLayout(
                o.slots(),
                ring,
                eventRing,
                o.mode(),
                o.rateHz(),
                o.stackBytes(),
                (o.startPaused() ? Wire.REGION_START_PAUSED : 0) | (o.cpuTimers() ? Wire.REGION_CPU_TIMERS : 0));
    }

    private int execute(Plan plan, DrainWarmup warmup) throws IOException, InterruptedException {
        OffsetDateTime started = OffsetDateTime.now().truncatedTo(ChronoUnit.MILLIS);
        try (Cleanup cleanup = new Cleanup()) {
            Map<String, String> env = childEnvironment(plan, cleanup);
            StaleRegions.clean(ctx.shmDir());
            Region region = Region.create(ctx.shmDir(), plan.layout());
            region.setSignal(plan.signal());
            cleanup.add(region::close);
            Spool spool = Spool.create(
                    plan.output().path().getParent(), "." + plan.output().path().getFileName() + ".");
            cleanup.add(() -> closeSpool(spool));
            warmup.await();
            CompilerQuiet.await();
            if (opensPerfEvents(plan, env)) PerfHooks.hold().ifPresent(h -> cleanup.add(h::close));
            return run(plan, env, region, spool, started);
        }
    }

    /** Whether the agent samples on perf cpu-clock events: cpu mode, or wall mode's opt-in for running threads. */
    private static boolean opensPerfEvents(Plan plan, Map<String, String> env) {
        RegionLayout l = plan.layout();
        return l.mode() == Wire.MODE_CPU
                ? (l.flags() & Wire.REGION_CPU_TIMERS) == 0
                : "on".equals(env.get("OMPPROF_WALL_CPU"));
    }

    private Map<String, String> childEnvironment(Plan plan, Cleanup cleanup) throws IOException {
        Map<String, String> env = new HashMap<>(ctx.env());
        plan.start().adjust(env);
        env.put("OMP_TOOL_LIBRARIES", plan.agent().toString());
        // the loader's auditor announces a library before dlclose unmaps it; it takes itself out of LD_AUDIT at start
        Path audit = plan.agent().resolveSibling(AUDIT_LIBRARY);
        if (Files.isRegularFile(audit)) {
            String theirs = env.get("LD_AUDIT");
            env.put("LD_AUDIT", theirs == null || theirs.isEmpty() ? audit.toString() : audit + ":" + theirs);
        }
        plan.mpi().library().ifPresent(mpi -> env.put("LD_PRELOAD", MpiCompanion.preload(mpi, env.get("LD_PRELOAD"))));
        // preloaded, the agent samples the program from its start, not from its first OpenMP construct
        env.put("LD_PRELOAD", MpiCompanion.preload(plan.agent(), env.get("LD_PRELOAD")));
        plan.mpi().missing().ifPresent(note -> ctx.err().println("ompprof: " + note));
        if (env.containsKey("OMP_TOOL"))
            env.put("OMP_TOOL", "enabled"); // unset means enabled: the program's own stays unset
        if (!plan.libraries().isEmpty()) {
            Path shim = plan.libraries().create();
            cleanup.add(() -> LibraryShim.delete(shim));
            env.put("LD_LIBRARY_PATH", LibraryShim.libraryPath(shim, env.get("LD_LIBRARY_PATH")));
        }
        if (plan.libraries().runsGccProgramOnLibomp()) {
            ctx.err().println("ompprof: GCC OpenMP program: running it on libomp's GOMP entry points");
        }
        return env;
    }

    @SuppressWarnings("try") // the forwarder only needs to exist while the program runs
    private int run(Plan plan, Map<String, String> env, Region region, Spool spool, OffsetDateTime started)
            throws IOException, InterruptedException {
        env.put("OMPPROF_SHM", region.path().toString());
        AtomicReference<Process> child = new AtomicReference<>();
        RunCollector collector =
                new RunCollector(spool, () -> programPid(region, child.get()), region::setModulesCaptured);
        Drainer drainer = new Drainer(region, collector);
        Progress progress = new Progress(ctx.err(), ctx.liveProgress());
        long cpuAtStart = CollectorCost.cpuNs();
        long t0 = System.nanoTime();
        int status;
        try (SignalForwarder signals = SignalForwarder.install(() -> Optional.ofNullable(child.get()))) {
            drainer.start();
            try {
                child.set(start(plan, env));
                status = waitFor(child.get(), region, collector, progress, t0);
            } finally {
                drainer.finish();
                region.unlink();
                progress.clear();
            }
            long wallNs = System.nanoTime() - t0;
            Metadata cost = new Metadata(Map.of())
                    .with(Metadata.COLLECTOR_CPU_AT_START_NS, Long.toString(cpuAtStart))
                    .with(Metadata.COLLECTOR_CPU_AT_END_NS, Long.toString(CollectorCost.cpuNs()))
                    .with(Metadata.COLLECTOR_PEAK_HEAP_BYTES, Long.toString(CollectorCost.peakHeapBytes()))
                    .with(Metadata.COLLECTOR_PEAK_RSS_BYTES, Long.toString(CollectorCost.peakRssBytes()));
            return finish(plan, region, collector, drainer, started, wallNs, status, cost);
        }
    }

    private Process start(Plan plan, Map<String, String> env) {
        ProcessBuilder pb = new ProcessBuilder(plan.start().command())
                .directory(ctx.cwd().toFile())
                .inheritIO();
        pb.environment().clear();
        pb.environment().putAll(env);
        try {
            return pb.start();
        } catch (IOException e) {
            throw new UserError("cannot run " + plan.typedCommand().getFirst() + ": " + e.getMessage());
        }
    }

    private int waitFor(Process p, Region region, RunCollector collector, Progress progress, long t0)
            throws InterruptedException {
        while (!p.waitFor(PROGRESS_INTERVAL_MS, TimeUnit.MILLISECONDS)) {
            region.unlinkIfMapped();
            progress.update(
                    seconds(System.nanoTime() - t0),
                    collector.threadCount(),
                    collector.samples(),
                    collector.dropped() + region.noSlotDrops());
        }
        return p.exitValue();
    }

    private int finish(
            Plan plan,
            Region region,
            RunCollector collector,
            Drainer drainer,
            OffsetDateTime started,
            long wallNs,
            int status,
            Metadata cost)
            throws IOException {
        boolean connected = region.agentState() >= Wire.AGENT_OMPT;
        if (!connected)
            ctx.err()
                    .println("ompprof: " + NO_OMPT
                            + (collector.samples() > 0 ? ": its samples are plain call paths" : "; recorded nothing"));
        for (String line : SamplingSignal.problems(plan.signal(), region.signalProblems(), region.foreignSignals())) {
            ctx.err().println("ompprof: " + line);
        }
        Metadata metadata = metadata(plan, region, collector, started, wallNs, status, connected);
        for (Map.Entry<String, String> e : cost.entries().entrySet())
            metadata = metadata.with(e.getKey(), e.getValue());
        Path output = plan.output().path();
        long bytes;
        if (finisher == null) {
            bytes = RecordingBuilder.write(output, metadata, collector, drainer, region);
        } else {
            Path raw = output.resolveSibling(output.getFileName() + ".raw");
            RecordingBuilder.write(raw, metadata, collector, drainer, region, plan.keepRaw());
            bytes = finishProfile(raw, output, plan.keepRaw());
        }
        ctx.err()
                .println(Progress.summary(
                        collector.threadCount(),
                        collector.samples(),
                        collector.dropped() + region.noSlotDrops(),
                        seconds(wallNs),
                        plan.output().shown(),
                        bytes));
        return status;
    }

    /** Nothing recorded is lost: if the profile cannot be made, the raw recording takes its place. */
    private long finishProfile(Path raw, Path output, boolean keepRaw) throws IOException {
        try {
            long bytes = finisher.finish(raw, output);
            if (!keepRaw) Files.deleteIfExists(raw);
            return bytes;
        } catch (IOException | RuntimeException e) {
            if (keepRaw) Files.copy(raw, output, StandardCopyOption.REPLACE_EXISTING);
            else Files.move(raw, output, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            ctx.err()
                    .println("ompprof: could not build the profile (" + e.getMessage() + "); " + output.getFileName()
                            + " holds the raw recording instead, which info and export also read");
            return Files.size(output);
        }
    }

    private static long programPid(Region region, Process p) {
        int agentPid = region.agentPid();
        if (agentPid != 0) return agentPid;
        return p == null ? -1 : p.pid();
    }

    private Metadata metadata(
            Plan plan,
            Region region,
            RunCollector c,
            OffsetDateTime started,
            long wallNs,
            int status,
            boolean connected) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(Metadata.COMMAND, ShellQuote.join(plan.typedCommand()));
        m.put(Metadata.PROGRAM, plan.program().toString());
        m.put(Metadata.CWD, ctx.cwd().toString());
        m.put(Metadata.START_TIME, started.toString());
        m.put(Metadata.HOST, Host.name());
        m.put(Metadata.CPUS, Integer.toString(Runtime.getRuntime().availableProcessors()));
        plan.rank().ifPresent(r -> {
            m.put(Metadata.MPI_RANK, Integer.toString(r.rank()));
            if (r.worldSize() > 0) m.put(Metadata.MPI_WORLD_SIZE, Integer.toString(r.worldSize()));
            if (!r.jobId().isEmpty()) m.put(Metadata.JOB_ID, r.jobId());
        });
        if (!c.mpiCalls().isEmpty()) m.put(Metadata.MPI_CALLS, c.mpiCalls().summary());
        m.put(Metadata.PID, Long.toString(region.agentPid()));
        m.put(Metadata.MODE, Wire.modeName(plan.layout().mode()));
        m.put(Metadata.RATE_HZ, Integer.toString(plan.layout().rateHz()));
        SamplingRate rate = c.samplingRate();
        if (rate.threads() > 0) {
            m.put(Metadata.ACHIEVED_RATE_HZ, Decimals.fixed(rate.medianHz(), 1));
            m.put(Metadata.ACHIEVED_RATE_LOWEST_HZ, Decimals.fixed(rate.lowestHz(), 1));
            m.put(Metadata.ACHIEVED_RATE_THREADS, Integer.toString(rate.threads()));
        }
        if (plan.layout().mode() == Wire.MODE_CPU) {
            m.put(Metadata.PERF_SAMPLES, Long.toString(rate.perfSamples()));
            if ((plan.layout().flags() & Wire.REGION_CPU_TIMERS) != 0) m.put(Metadata.CPU_TIMERS_ASKED, "true");
            m.put(Metadata.CPU_MOVED_THREADS, Long.toString(region.cpuMovedThreads()));
            m.put(Metadata.CPU_TIMER_SAMPLES, Long.toString(rate.samples() - rate.perfSamples()));
            m.put(Metadata.CPU_SWITCH_LIMIT, Long.toString(region.cpuSwitchLimit()));
        }
        m.put(Metadata.REPEATED_SAMPLES, Long.toString(c.repeatedSamples()));
        m.put(Metadata.STACK_BYTES, Integer.toString(plan.layout().stackBytes()));
        m.put(Metadata.SLOTS, Integer.toString(plan.layout().slots()));
        if ((plan.layout().flags() & Wire.REGION_START_PAUSED) != 0) m.put(Metadata.START_PAUSED, "true");
        m.put(Metadata.SAMPLE_RING_BYTES, Long.toString(plan.layout().sampleRingSize()));
        m.put(Metadata.EVENT_RING_BYTES, Long.toString(plan.layout().eventRingSize()));
        m.put(Metadata.OMPT_CONNECTED, Boolean.toString(connected));
        m.put(Metadata.RUNTIME_VERSION, region.runtimeVersion());
        m.put(Metadata.SIGNAL, SamplingSignal.name(plan.signal()));
        m.put(Metadata.SIGNAL_PROBLEMS, Integer.toString(region.signalProblems()));
        m.put(Metadata.FOREIGN_SIGNALS, Long.toString(region.foreignSignals()));
        if (plan.layout().mode() == Wire.MODE_WALL) {
            m.put(Metadata.WALL_OUTSIDE, Long.toString(region.wallOutside()));
            m.put(Metadata.WALL_SIGNALLED, Long.toString(region.wallSignalled()));
            m.put(Metadata.WALL_INTERRUPTED, Long.toString(region.wallInterrupted()));
            m.put(Metadata.WALL_RESTARTED, Long.toString(region.wallRestarted()));
            m.put(Metadata.WALL_LATE_TICKS, Long.toString(region.wallLateTicks()));
            m.put(Metadata.TASK_VIEWS_ASKED, Long.toString(region.taskViewsAsked()));
            m.put(Metadata.TASK_FRAME_LAYOUT, Wire.taskFrameName(region.taskFrameLayout()));
        }
        c.agentInfo().ifPresent(a -> {
            m.put(Metadata.OMPT_VERSION, Integer.toString(a.omptVersion()));
            m.put(Metadata.SAMPLE_PERIOD_NS, Long.toString(a.samplePeriodNs()));
            m.put(Metadata.CALLBACKS_REGISTERED, "0x" + Long.toHexString(a.callbacksRegistered()));
        });
        c.agentEnd().ifPresent(a -> m.put(Metadata.TIMERS_FAILED, Long.toString(a.timersFailed())));
        m.put(Metadata.AGENT_START_NS, Long.toString(region.agentStartNs()));
        m.put(Metadata.WALL_NS, Long.toString(wallNs));
        m.put(Metadata.EXIT_STATUS, Integer.toString(status));
        m.put(Metadata.OMPPROF_VERSION, ctx.ompprofVersion());
        m.put(Metadata.GOMP_SHIM, Boolean.toString(plan.libraries().runsGccProgramOnLibomp()));
        plan.libraries().offloadRuntime().ifPresent(libomp -> m.put(Metadata.OFFLOAD_LIBOMP, libomp.toString()));
        m.put(Metadata.AGENT, plan.agent().toString());
        return new Metadata(m);
    }

    private static double seconds(long ns) {
        return ns / 1e9;
    }

    private static void closeSpool(Spool spool) {
        try {
            spool.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
