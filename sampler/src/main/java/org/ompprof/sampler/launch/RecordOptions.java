package org.ompprof.sampler.launch;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.ompprof.sampler.UserError;
import org.ompprof.sampler.wire.Wire;

/**
 * The command line of {@code ompprof record}, parsed and range-checked.
 *
 * @param output empty: {@code <program basename>.ompprof} in the current directory
 * @param mode {@code Wire.MODE_*}
 * @param startPaused sample only once the program calls {@code omp_control_tool(omp_control_tool_start, ...)}
 * @param keepRaw also keep the raw recording (stack snapshots and callback records) as {@code FILE.raw}
 * @param timelineResolutionNs 0: the timelines keep every sample; else one entry per thread per this much time
 * @param selfProfile where to write a JFR recording of what ompprof itself does ({@code --self-profile}), if anywhere
 * @param cpuTimers cpu mode on the threads' POSIX CPU-clock timers even where perf events are allowed
 * @param command the program and its arguments
 */
public record RecordOptions(
        Optional<String> output,
        int mode,
        int rateHz,
        int stackBytes,
        int slots,
        int ringKib,
        int eventRingKib,
        boolean startPaused,
        boolean keepRaw,
        long timelineResolutionNs,
        int signal,
        Optional<String> selfProfile,
        boolean cpuTimers,
        boolean help,
        List<String> command) {
    public static final int DEFAULT_RATE = 1000;
    public static final int DEFAULT_STACK_BYTES = 16 * 1024;
    public static final int DEFAULT_SLOTS = 64;
    public static final int DEFAULT_RING_KIB = 2048;
    /**
     * Callback records come in bursts (a task-per-call program creates a million tasks a second)
     * while the drainer shares the cores with the program; the ring's pages cost memory only
     * once written, so a quiet program pays nothing for the room.
     */
    public static final int DEFAULT_EVENT_RING_KIB = 8192;

    public static final int MAX_STACK_BYTES = 64 * 1024;

    public static final String USAGE = """
            usage: ompprof record [-o FILE] [--mode wall|cpu] [--rate HZ] [--stack-bytes N]
                                  [--slots N] [--ring-kib N] [--event-ring-kib N] [--start-paused] [--signal SIG]
                                  [--cpu-timers] [--keep-raw] [--timeline-resolution DURATION]
                                  [--self-profile FILE.jfr] -- PROGRAM ARGS...

            Runs PROGRAM under the profiler and writes its profile (default: PROGRAM.ompprof
            in the current directory; an existing file is replaced only by a complete profile).

              -o, --output FILE   where to write the profile
              --mode wall|cpu     sample on wall-clock time (default; sees waiting threads too)
                                  or on each thread's CPU time (perf cpu-clock events where the
                                  kernel allows them, perf_event_paranoid <= 2; else CPU-clock
                                  timers, which fire at the kernel's tick: often 250 Hz at most)
              --cpu-timers        cpu mode on CPU-clock timers even where perf events are allowed
              --rate HZ           samples per second per thread (default 1000)
              --stack-bytes N     bytes of stack copied per sample (default 16384, at most 65536)
              --slots N           threads that can be recorded at once (default 64)
              --ring-kib N        sample buffer per thread in KiB, a power of two (default 2048)
              --event-ring-kib N  buffer per thread for OpenMP events (regions, tasks, locks) in
                                  KiB, a power of two (default 8192)
              --start-paused      take no samples until the program calls omp_control_tool(
                                  omp_control_tool_start, 0, NULL); omp_control_tool_pause
                                  pauses again, omp_control_tool_end stops for good
              --signal SIG        the signal to sample with (default SIGPROF), for programs that
                                  use SIGPROF themselves: SIGRTMIN+N, SIGUSR1, SIGUSR2 or a number
              --keep-raw          also keep the raw samples (stack snapshots) as FILE.raw, for bug
                                  reports; info and export read it too
              --timeline-resolution DURATION
                                  keep one timeline entry per thread per DURATION (10ms, 1s):
                                  a smaller file and a lighter viewer for long runs; the
                                  calling-context tree still counts every sample
              --self-profile FILE.jfr
                                  record what ompprof itself costs (JFR: CPU, GC, allocation and
                                  the ompprof.* events: ring drains, spool writes, drops, the
                                  profile build's stages) into FILE.jfr; read it with jfr summary,
                                  jfr print --events ompprof.BuildStage, or JDK Mission Control.
                                  Without it, ompprof info still shows the collector's CPU time,
                                  peak heap and build time per stage

            The program's input and output pass through, and ompprof exits with its status.
            """;

    public RecordOptions {
        command = List.copyOf(command);
    }

    public static RecordOptions parse(List<String> args) {
        Parser p = new Parser(args);
        return p.parse();
    }

    /** Left-to-right parse; the first argument that is not an option starts the command. */
    private static final class Parser {
        private final List<String> args;
        private int i;
        private String output;
        private int mode = Wire.MODE_WALL;
        private int rate = DEFAULT_RATE;
        private int stack = DEFAULT_STACK_BYTES;
        private int slots = DEFAULT_SLOTS;
        private int ringKib = DEFAULT_RING_KIB;
        private int eventRingKib = DEFAULT_EVENT_RING_KIB;
        private boolean startPaused;
        private boolean keepRaw;
        private long timelineResolutionNs;
        private int signal = SamplingSignal.SIGPROF;
        private String selfProfile;
        private boolean cpuTimers;
        private boolean help;

        Parser(List<String> args) {
            this.args = args;
        }

        RecordOptions parse() {
            while (i < args.size()) {
                String a = args.get(i);
                if (a.equals("--")) {
                    i++;
                    break;
                }
                if (!a.startsWith("-") || a.equals("-")) break;
                i++;
                option(a);
            }
            List<String> command = new ArrayList<>(args.subList(i, args.size()));
            if (command.isEmpty() && !help) {
                throw new UserError("record: no program given; usage: ompprof record [OPTIONS] -- PROGRAM ARGS...");
            }
            if (!help && command.getFirst().isEmpty()) throw new UserError("record: the program name is empty");
            if (cpuTimers && mode != Wire.MODE_CPU)
                throw new UserError("record: --cpu-timers is for --mode cpu; add --mode cpu or drop it");
            return new RecordOptions(
                    Optional.ofNullable(output),
                    mode,
                    rate,
                    stack,
                    slots,
                    ringKib,
                    eventRingKib,
                    startPaused,
                    keepRaw,
                    timelineResolutionNs,
                    signal,
                    Optional.ofNullable(selfProfile),
                    cpuTimers,
                    help,
                    command);
        }

        private void option(String a) {
            String name = a;
            String inline = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                name = a.substring(0, eq);
                inline = a.substring(eq + 1);
            }
            switch (name) {
                case "-h", "--help" -> help = true;
                case "-o", "--output" -> output = value(name, inline);
                case "--self-profile" -> selfProfile = value(name, inline);
                case "--keep-raw" -> keepRaw = true;
                case "--cpu-timers" -> cpuTimers = true;
                case "--start-paused" -> startPaused = true;
                case "--signal" -> signal = SamplingSignal.parse(value(name, inline));
                case "--mode" -> mode = mode(value(name, inline));
                case "--rate" -> rate = number(name, value(name, inline), 1, 100_000);
                case "--stack-bytes" -> stack = number(name, value(name, inline), 0, MAX_STACK_BYTES);
                case "--slots" -> slots = number(name, value(name, inline), 1, 4096);
                case "--ring-kib" -> ringKib = powerOfTwo(name, value(name, inline));
                case "--event-ring-kib" -> eventRingKib = powerOfTwo(name, value(name, inline));
                case "--timeline-resolution" ->
                    timelineResolutionNs = DurationArg.parseNs("record", name, value(name, inline));
                default -> throw new UserError("record: unknown option " + a + "; see ompprof record --help");
            }
        }

        private String value(String name, String inline) {
            if (inline != null) return inline;
            if (i >= args.size()) throw new UserError("record: " + name + " needs a value");
            return args.get(i++);
        }

        private static int mode(String v) {
            return switch (v) {
                case "wall" -> Wire.MODE_WALL;
                case "cpu" -> Wire.MODE_CPU;
                default -> throw new UserError("record: --mode must be wall or cpu, not '" + v + "'");
            };
        }

        private static int number(String name, String v, int min, int max) {
            try {
                int n = Integer.parseInt(v.replace("_", ""));
                if (n >= min && n <= max) return n;
            } catch (NumberFormatException e) {
                // fall through to the message
            }
            throw new UserError(
                    "record: " + name + " needs a whole number from " + min + " to " + max + ", not '" + v + "'");
        }

        private static int powerOfTwo(String name, String v) {
            int n = number(name, v, 4, 1 << 20);
            if (Integer.bitCount(n) != 1)
                throw new UserError("record: " + name + " must be a power of two (e.g. 512, 1024, 2048), not " + n);
            return n;
        }
    }
}
