package org.ompprof.ui;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.ompprof.calltree.build.ReadOrBuild;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.sampler.UserError;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.ui.report.Report;

/** {@code ompprof report [--top N] [--thread-table] FILE}: where the time goes, who makes threads wait, per region. */
final class ReportCommand {
    static final String USAGE = """
        usage: ompprof report [--top N] [--thread-table] FILE
          a summary (wall time, threads, time per OpenMP state), the top contexts by inclusive
          time and by blame, a table per parallel region (work, barrier, lock/critical wait,
          idle per thread, load imbalance) and findings ranked by what they cost
          --top N          contexts listed per ranking (default 10)
          --thread-table   also the time per OpenMP state of each thread
        """;

    private ReportCommand() {}

    static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.contains("--help") || args.contains("-h")) {
            out.print(USAGE);
            return 0;
        }
        int top = 10;
        boolean threadTable = false;
        List<String> files = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--top" -> top = positive(i + 1 < args.size() ? args.get(++i) : null);
                case "--thread-table" -> threadTable = true;
                default -> {
                    if (a.startsWith("-"))
                        throw new UserError("report: unknown option " + a + "; see ompprof report --help");
                    files.add(a);
                }
            }
        }
        if (files.size() != 1)
            throw new UserError(
                    "report: give exactly one profile; usage: ompprof report [--top N] [--thread-table] FILE");
        Path file = Path.of(files.getFirst());
        if (Files.isDirectory(file)) throw new UserError("report: " + file + " is a directory, not a profile");
        try (Recording r = Recording.open(file)) {
            Profile p = ReadOrBuild.profile(r);
            Metadata m = r.metadata();
            out.print(new Report(p, m, r.threads(), file.toString(), top, threadTable).text());
        }
        AotTraining.workDone();
        return 0;
    }

    private static int positive(String v) {
        try {
            int n = Integer.parseInt(v == null ? "" : v);
            if (n > 0) return n;
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new UserError("report: --top needs a positive whole number, not '" + v + "'");
    }
}
