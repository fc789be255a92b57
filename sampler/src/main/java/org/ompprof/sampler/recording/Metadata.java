package org.ompprof.sampler.recording;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Key/value facts about a run, in the order they were recorded. Unknown keys are kept. */
public record Metadata(Map<String, String> entries) {
    public static final String COMMAND = "command";
    public static final String PROGRAM = "program";
    public static final String CWD = "cwd";
    public static final String START_TIME = "start_time";
    public static final String HOST = "host";
    /** The CPUs the program could run on (its affinity and cgroup, as the launcher saw them). */
    public static final String CPUS = "cpus";
    /** Under an MPI launcher: this process's rank, the job's size (when told) and the launcher's job id (when told). */
    public static final String MPI_RANK = "mpi_rank";

    public static final String MPI_WORLD_SIZE = "mpi_world_size";
    public static final String JOB_ID = "job_id";
    /** The MPI calls as their enter and exit records measured them ({@code MpiCallTotals#summary}). */
    public static final String MPI_CALLS = "mpi_calls";

    public static final String PID = "pid";
    public static final String MODE = "mode";
    public static final String RATE_HZ = "rate_hz";
    /** Per thread, samples per second of the time they stand for: the median and the lowest over the threads. */
    public static final String ACHIEVED_RATE_HZ = "achieved_rate_hz";

    public static final String ACHIEVED_RATE_LOWEST_HZ = "achieved_rate_lowest_hz";
    public static final String ACHIEVED_RATE_THREADS = "achieved_rate_threads";
    /** cpu mode: the samples perf cpu-clock events delivered (the others came from CPU-clock timers). */
    public static final String PERF_SAMPLES = "perf_samples";

    public static final String CPU_TIMERS_ASKED = "cpu_timers_asked";
    /**
     * cpu mode: threads the agent moved from their perf event to a CPU-clock timer because they switched more often
     * than {@link #CPU_SWITCH_LIMIT} times per CPU-second (each switch costs a perf event its scheduling out and in).
     */
    public static final String CPU_MOVED_THREADS = "cpu_moved_threads";

    public static final String CPU_SWITCH_LIMIT = "cpu_switch_limit";
    /** cpu mode: the samples CPU-clock timers delivered (moved threads', or every thread's without perf events). */
    public static final String CPU_TIMER_SAMPLES = "cpu_timer_samples";

    public static final String STACK_BYTES = "stack_bytes";
    public static final String SLOTS = "slots";
    public static final String SAMPLE_RING_BYTES = "sample_ring_bytes";
    public static final String EVENT_RING_BYTES = "event_ring_bytes";
    public static final String RUNTIME_VERSION = "runtime_version";
    public static final String OMPT_VERSION = "ompt_version";
    public static final String OMPT_CONNECTED = "ompt_connected";
    public static final String SAMPLE_PERIOD_NS = "sample_period_ns";
    public static final String CALLBACKS_REGISTERED = "callbacks_registered";
    public static final String TIMERS_FAILED = "timers_failed";
    public static final String AGENT_START_NS = "agent_start_ns";
    public static final String WALL_NS = "wall_ns";
    public static final String EXIT_STATUS = "exit_status";
    public static final String OMPPROF_VERSION = "ompprof_version";
    public static final String GOMP_SHIM = "gomp_shim";
    /**
     * The program's libomp, made findable as libomp.so for libomptarget's OMPT connection; absent when not offloading.
     */
    public static final String OFFLOAD_LIBOMP = "offload_libomp";
    /** "true" when sampling waited for the program's omp_control_tool(start) ({@code record --start-paused}). */
    public static final String START_PAUSED = "start_paused";

    public static final String AGENT = "agent";
    public static final String SIGNAL = "signal";
    public static final String SIGNAL_PROBLEMS = "signal_problems";
    public static final String FOREIGN_SIGNALS = "foreign_signals";
    /** Wall mode: samples of threads blocked in a system call, taken from outside without a signal. */
    public static final String WALL_OUTSIDE = "wall_outside_samples";
    /** Samples sent as a repeat of the thread's sample before (record.RepeatedSamples): its stack not copied again. */
    public static final String REPEATED_SAMPLES = "repeated_samples";
    /**
     * Wall mode: signals sent to running threads; of them, ones that found the thread just blocked: its call returned
     * EINTR, or was restarted.
     */
    public static final String WALL_SIGNALLED = "wall_signalled";

    public static final String WALL_INTERRUPTED = "wall_interrupted";
    public static final String WALL_RESTARTED = "wall_restarted";
    /**
     * Wall mode: the sampler's ticks (or the rest of one) left because the sampler ran late to them: it had waited
     * for a CPU, and such ticks see the threads at the moment one of them gave its CPU up.
     */
    public static final String WALL_LATE_TICKS = "wall_late_ticks";
    /**
     * Wall mode: views of a switched-to task (what the wall sampler needs to sample a thread blocked in it) the agent
     * made by asking the runtime, and how it found the tasks' frames otherwise ({@code found}: from the task's data,
     * as the runtime's answers showed; {@code asked}: too few answers yet; {@code refuted}: an answer disagreed).
     */
    public static final String TASK_VIEWS_ASKED = "task_views_asked";

    public static final String TASK_FRAME_LAYOUT = "task_frame_layout";
    /** Set when the profile's timelines keep one entry per thread per this many ns (downsampled on request). */
    public static final String TIMELINE_RESOLUTION_NS = "timeline_resolution_ns";

    /** The collector's (the ompprof JVM's) CPU time since it started, in ns, read as the program started. */
    public static final String COLLECTOR_CPU_AT_START_NS = "collector_cpu_at_start_ns";
    /** The same, read when the program had ended and the rings were drained. */
    public static final String COLLECTOR_CPU_AT_END_NS = "collector_cpu_at_end_ns";
    /** The same, read as the profile was written (after its build, before its metadata section). */
    public static final String COLLECTOR_CPU_AT_PROFILE_NS = "collector_cpu_at_profile_ns";
    /** The collector's heap pools' peak use added up, in bytes, at the last of those readings. */
    public static final String COLLECTOR_PEAK_HEAP_BYTES = "collector_peak_heap_bytes";
    /** The collector's resident memory at its highest (VmHWM), in bytes, when the program had ended. */
    public static final String COLLECTOR_PEAK_RSS_BYTES = "collector_peak_rss_bytes";
    /** Wall time of building the profile from the raw recording, in ns (up to writing the metadata). */
    public static final String BUILD_WALL_NS = "build_wall_ns";
    /** Prefix of the build's time per stage, in ns: build_ns.decode, build_ns.unwind, ... */
    public static final String BUILD_STAGE_NS = "build_ns.";
    /** Prefix of the build's items per stage (records, stacks, samples, pcs, bytes): build_items.decode, ... */
    public static final String BUILD_STAGE_ITEMS = "build_items.";

    public Metadata {
        entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
    }

    public Optional<String> get(String key) {
        return Optional.ofNullable(entries.get(key));
    }

    public String get(String key, String otherwise) {
        return entries.getOrDefault(key, otherwise);
    }

    /** The value as a long, or {@code otherwise} when absent or not a number. */
    public long getLong(String key, long otherwise) {
        try {
            return Long.parseLong(entries.getOrDefault(key, ""));
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    /** These entries with {@code key} set to {@code value}. */
    public Metadata with(String key, String value) {
        LinkedHashMap<String, String> m = new LinkedHashMap<>(entries);
        m.put(key, value);
        return new Metadata(m);
    }

    public boolean flag(String key) {
        return Boolean.parseBoolean(entries.get(key));
    }
}
