package org.ompprof.ui;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.ompprof.sampler.UserError;

/** The {@code ompprof} command line: dispatches to one command per verb. */
public final class Main {
    private Main() {}

    public static void main(String[] argv) {
        System.exit(run(List.of(argv), System.out, System.err));
    }

    /** Runs one command line; returns the exit status. */
    public static int run(List<String> argv, PrintStream out, PrintStream err) {
        List<String> args = new ArrayList<>(argv);
        boolean debug = args.remove("--debug");
        if (args.isEmpty()
                || args.getFirst().equals("--help")
                || args.getFirst().equals("-h")
                || args.getFirst().equals("help")) {
            out.print(Usage.text());
            return args.isEmpty() ? 2 : 0;
        }
        if (args.getFirst().equals("--version")) {
            out.println("ompprof " + Version.get());
            return 0;
        }
        String verb = args.removeFirst();
        try {
            return switch (verb) {
                case "record" -> RecordCommand.run(args, out, err);
                case "info" -> InfoCommand.run(args, out, err);
                case "export" -> ExportCommand.run(args, out, err);
                case "report" -> ReportCommand.run(args, out, err);
                case "merge" -> MergeCommand.run(args, out, err);
                case "diff" -> DiffCommand.run(args, out, err);
                case "demo" -> DemoCommand.run(args, out, err);
                case "view" -> org.ompprof.ui.view.ViewCommand.run(args, out, err);
                default -> throw new UserError("unknown command '" + verb + "'; see ompprof --help");
            };
        } catch (UserError e) {
            err.println("ompprof: " + e.getMessage());
            if (debug) e.printStackTrace(err);
            return 2;
        } catch (Exception e) {
            err.println("ompprof: internal error: " + e + (debug ? "" : " (run with --debug for details)"));
            if (debug) e.printStackTrace(err);
            return 3;
        }
    }
}
