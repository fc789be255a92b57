package org.ompprof.ui;

/** The text of {@code ompprof --help}. */
final class Usage {
    private Usage() {}

    static String text() {
        return """
            ompprof: a sampling profiler for OpenMP programs on LLVM's libomp

            usage:
              ompprof record [-o FILE] [--mode wall|cpu] [--rate HZ] [--stack-bytes N] -- PROGRAM ARGS...
                  run PROGRAM under the profiler and write its profile (default PROGRAM.ompprof)
              ompprof info FILE
                  metadata, threads, samples per OpenMP state, drops, handler cost, profile size,
                  and what ompprof cost: its CPU time during and after the run, peak heap, build stages
              ompprof report [--top N] [--thread-table] FILE
                  where the time goes, who makes the threads wait (blame), a table per parallel
                  region with its load imbalance, and findings ranked by cost
              ompprof export --format collapsed|html|perfetto|pprof|speedscope [--metric NAME]
                             [--thread N] [-o OUT] FILE
                  the calling-context tree as folded stacks or a flame graph: every sample under
                  its full call path from main, through parallel regions and tasks, runtime elided;
                  or a trace for Perfetto, a pprof profile, a speedscope file
              ompprof merge -o OUT FILE...
                  merge the profiles of many runs or processes into one (threads kept apart)
              ompprof diff [-o OUT] A B
                  a differential profile: B with A's values (a.*) and B minus A (delta.*)
              ompprof view [--source-path DIRS] FILE
                  the viewer: top-down, bottom-up and flat tables, flame graph, timeline, source,
                  per-region charts and the report's findings, in a window
              ompprof view --screenshot OUT.png [--view VIEW] [--size WxH] FILE
                  one view rendered to a PNG, no display needed
              ompprof demo
                  build what is missing, profile a bundled OpenMP example and print what it found
              ompprof --help | --version

            options common to all commands:
              --debug        print stack traces for internal errors
            -o - (and view --screenshot -) writes to standard output: export, merge, diff, view.
            record's profile is a file (the program writes to standard output itself).

            options of record, view, merge and export:
              --self-profile FILE.jfr
                             record what ompprof itself costs with JDK Flight Recorder (CPU, GC,
                             allocation and the ompprof.* events) into FILE.jfr; see it with
                             jfr summary FILE.jfr, jfr print --events ompprof.BuildStage FILE.jfr

            Each command accepts --help.
            """;
    }
}
