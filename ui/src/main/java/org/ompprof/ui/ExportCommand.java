package org.ompprof.ui;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Metric;
import org.ompprof.calltree.StandardMetrics;
import org.ompprof.calltree.build.ReadOrBuild;
import org.ompprof.calltree.export.CollapsedOptions;
import org.ompprof.calltree.export.CollapsedWriter;
import org.ompprof.calltree.export.FlameGraphOptions;
import org.ompprof.calltree.export.FlameGraphWriter;
import org.ompprof.calltree.export.PprofWriter;
import org.ompprof.calltree.export.SpeedscopeWriter;
import org.ompprof.calltree.export.TraceEventWriter;
import org.ompprof.calltree.merge.ProfileDiff;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.sampler.UserError;
import org.ompprof.sampler.launch.OutputTarget;
import org.ompprof.sampler.omp.ThreadType;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.ThreadInfo;

/** {@code ompprof export}: a recording's calling-context tree as folded stacks or a flame graph. */
final class ExportCommand {
    static final String USAGE = """
        usage: ompprof export --format collapsed|html|perfetto|pprof|speedscope [--metric NAME] [--thread N] [-o OUT]
                              [--self-profile FILE.jfr] FILE
          collapsed  folded stacks, root first (main;driver;leaf 123), one line per path
          html       a flame graph (async-profiler's converter); of a profile made by
                     ompprof diff, a differential one: widths are B's, colors the change
                     of each frame's own value from A (red grew, blue shrank, yellow new)
          perfetto   a trace (Chrome trace-event JSON; ui.perfetto.dev, chrome://tracing): each thread's
                     call stacks and OpenMP states over time, device lanes, launch arrows
          pprof      profile.proto, gzipped (go tool pprof, Pyroscope): a sample type per metric
          speedscope speedscope's JSON: each thread's samples in time order
          --metric   what weighs the stacks: time (default; ns, as report and the viewer weigh
                     them), samples, time.work_parallel, time.barrier, time.lock, time.idle, ...
                     (an unknown name lists them all)
          --thread   one thread only (its number in `ompprof info`)
          -o OUT     write to OUT instead of standard output (-o -: standard output)
          --self-profile FILE.jfr   record what ompprof itself costs (JFR) into FILE.jfr
        """;

    private static final List<String> FORMATS = List.of("collapsed", "html", "perfetto", "pprof", "speedscope");

    private ExportCommand() {}

    record Options(String format, String metric, Integer thread, OutputTarget output, Path input, String selfProfile) {}

    /** What an export reads: the profile, and the recording's metadata and threads for names and times. */
    record Source(Profile profile, Metadata meta, List<ThreadInfo> threads) {
        String threadName(int seq) {
            for (ThreadInfo t : threads) {
                if (t.seq() == seq)
                    return "thread " + seq + " (" + ThreadType.nameOf(t.threadType()) + ", tid " + t.osTid() + ")";
            }
            return "thread " + seq;
        }

        String program() {
            return meta.get(Metadata.COMMAND, "program");
        }
    }

    static int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        if (args.contains("--help") || args.contains("-h")) {
            out.print(USAGE);
            return 0;
        }
        Options o = parse(args);
        try (SelfProfile self = SelfProfile.start("export", o.selfProfile(), err)) {
            return export(o, out, err);
        }
    }

    private static int export(Options o, PrintStream out, PrintStream err) throws IOException {
        Source source;
        try (Recording recording = Recording.open(o.input())) {
            source = new Source(ReadOrBuild.profile(recording), recording.metadata(), recording.threads());
        }
        Profile profile = source.profile();
        CallingContextTree tree = profile.tree();
        if (tree.metrics().find(o.metric()) == null) {
            throw new UserError("unknown metric '" + o.metric() + "'; known: "
                    + String.join(", ", tree.metrics().names()));
        }
        if (o.output() == null) {
            write(o, source, out);
            out.flush();
        } else {
            writeAtomically(o, source);
            err.println("ompprof: wrote " + o.output().shown() + " (" + profile.samples() + " samples, " + tree.size()
                    + " contexts)");
        }
        AotTraining.workDone();
        return 0;
    }

    private static Options parse(List<String> args) {
        String format = null, metric = StandardMetrics.TIME_NAME, selfProfile = null;
        Integer thread = null;
        OutputTarget output = null; // checked now, before the tree is built, not after
        List<String> files = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--format" -> format = value(args, ++i, a);
                case "--metric" -> metric = value(args, ++i, a);
                case SelfProfile.OPTION -> selfProfile = value(args, ++i, a);
                case "--thread" -> thread = number(value(args, ++i, a));
                case "-o", "--output" -> {
                    String v = value(args, ++i, a);
                    output = v.equals(StandardOutput.NAME)
                            ? null
                            : OutputTarget.of(v, Path.of("").toAbsolutePath());
                }
                default -> {
                    if (a.startsWith("-")) throw new UserError("unknown option " + a + "; see ompprof export --help");
                    files.add(a);
                }
            }
        }
        if (format == null || !FORMATS.contains(format)) {
            throw new UserError("export needs --format " + String.join(", ", FORMATS.subList(0, FORMATS.size() - 1))
                    + " or " + FORMATS.getLast());
        }
        if (files.size() != 1) throw new UserError("export needs exactly one recording; see ompprof export --help");
        return new Options(format, metric, thread, output, Path.of(files.getFirst()), selfProfile);
    }

    private static String value(List<String> args, int i, String option) {
        if (i >= args.size()) throw new UserError(option + " needs a value");
        return args.get(i);
    }

    private static int number(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new UserError("--thread needs a thread number, not '" + s + "'");
        }
    }

    private static void write(Options o, Source source, OutputStream out) throws IOException {
        CallingContextTree tree = source.profile().tree();
        List<Timeline> timelines = source.profile().timelines().stream()
                .filter(t -> o.thread() == null || t.thread() == o.thread())
                .toList();
        Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        switch (o.format()) {
            case "html" -> {
                FlameGraphOptions f = FlameGraphOptions.titled(
                                "ompprof: " + o.input().getFileName())
                        .withMetric(o.metric());
                f = o.thread() == null ? f : f.withThread(o.thread());
                String base = ProfileDiff.BASE + o.metric();
                if (tree.metrics().find(base) != null) {
                    out.write(FlameGraphWriter.toDiffHtml(tree, f.withMetric(o.metric()), base)
                            .getBytes(StandardCharsets.UTF_8));
                } else {
                    FlameGraphWriter.write(tree, f, out);
                }
            }
            case "perfetto" ->
                TraceEventWriter.write(
                        tree, timelines, source.profile().devices(), source::threadName, source.program(), w);
            case "speedscope" ->
                SpeedscopeWriter.write(
                        tree,
                        timelines,
                        source::threadName,
                        "ompprof: " + o.input().getFileName(),
                        "ompprof " + Version.get(),
                        w);
            case "pprof" -> {
                List<Metric> metrics =
                        new ArrayList<>(List.of(tree.metrics().require(o.metric()))); // the default sample type
                for (Metric m : tree.metrics().all()) if (!metrics.contains(m)) metrics.add(m);
                PprofWriter.write(
                        tree,
                        metrics,
                        startEpochNs(source.meta()),
                        source.meta().getLong(Metadata.WALL_NS, 0),
                        "ompprof " + Version.get() + ": " + source.program(),
                        out);
            }
            default -> {
                CollapsedOptions c = CollapsedOptions.defaults().withMetric(o.metric());
                CollapsedWriter.write(tree, o.thread() == null ? c : c.withThread(o.thread()), w);
            }
        }
        w.flush();
    }

    private static long startEpochNs(Metadata meta) {
        try {
            return java.time.Instant.parse(meta.get(Metadata.START_TIME, "")).toEpochMilli() * 1_000_000;
        } catch (java.time.format.DateTimeParseException e) {
            return 0;
        }
    }

    /** Writes next to the target and renames, so a failed export leaves an existing file alone. */
    private static void writeAtomically(Options o, Source source) throws IOException {
        Path target = o.output().path();
        Path dir = target.getParent();
        Path tmp = Files.createTempFile(dir, "." + target.getFileName(), ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(tmp)) {
                write(o, source, out);
            }
            Files.setPosixFilePermissions(
                    tmp, PosixFilePermissions.fromString("rw-r--r--")); // temp files start private
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
