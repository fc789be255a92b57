package org.ompprof.ui.view;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.ompprof.sampler.UserError;

/**
 * The {@code ompprof view} command line.
 *
 * @param screenshot where to write a PNG instead of opening a window; null for a window
 * @param select a regex: select the heaviest context whose name matches (else the hot path's end)
 * @param selfProfile where to write a JFR recording of what ompprof itself does, or null
 */
record ViewOptions(
        Path file,
        Path screenshot,
        Viewer.View view,
        int width,
        int height,
        List<Path> sourcePath,
        String select,
        String selfProfile) {
    static final String USAGE = """
        usage: ompprof view [--source-path DIR[:DIR...]] [--self-profile FILE.jfr] FILE
               ompprof view --screenshot OUT.png [--view VIEW] [--size WxH] [--select REGEX]
                            [--self-profile FILE.jfr] FILE
          opens the viewer: top-down, bottom-up and flat tables, flame graph, timeline, source
          and per-region charts, with the report's findings at the side
          --screenshot OUT.png   render one view to a PNG without a display, and exit (-: standard output)
          --view VIEW            topdown (default), bottomup, flat, flame, timeline, source, regions
          --size WxH             the picture's size in pixels (default 1400x800)
          --select REGEX         select the heaviest context whose name matches (default: the end
                                 of the hot path)
          --source-path DIRS     where to look for source files moved since the build
          --self-profile FILE.jfr  record what ompprof itself costs (JFR: the viewer's loads,
                                 CPU, GC, allocation) into FILE.jfr, written when the viewer closes
        """;

    static ViewOptions parse(List<String> args) {
        Path file = null, screenshot = null;
        Viewer.View view = Viewer.View.TOPDOWN;
        int w = 1400, h = 800;
        List<Path> sources = new ArrayList<>();
        String select = null, selfProfile = null;
        List<String> files = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--screenshot" -> screenshot = Path.of(value(args, ++i, a));
                case "--view" -> {
                    String name = value(args, ++i, a);
                    view = Viewer.View.named(name);
                    if (view == null)
                        throw new UserError("view: unknown view '" + name
                                + "'; one of topdown, bottomup, flat, flame, timeline, source, regions");
                }
                case "--size" -> {
                    String s = value(args, ++i, a);
                    String[] wh = s.split("x");
                    try {
                        w = Integer.parseInt(wh[0]);
                        h = Integer.parseInt(wh[1]);
                    } catch (RuntimeException e) {
                        throw new UserError(
                                "view: --size needs WIDTHxHEIGHT in pixels, like 1400x800, not '" + s + "'");
                    }
                    if (w < 200 || h < 150 || w > 8000 || h > 8000)
                        throw new UserError("view: --size " + s + " is outside 200x150 .. 8000x8000");
                }
                case "--source-path" -> sources.addAll(SourceFinder.parse(value(args, ++i, a)));
                case "--select" -> select = value(args, ++i, a);
                case "--self-profile" -> selfProfile = value(args, ++i, a);
                default -> {
                    if (a.startsWith("-"))
                        throw new UserError("view: unknown option " + a + "; see ompprof view --help");
                    files.add(a);
                }
            }
        }
        if (files.size() != 1) throw new UserError("view: give exactly one profile; see ompprof view --help");
        file = Path.of(files.getFirst());
        if (sources.isEmpty()) sources.add(Path.of("").toAbsolutePath());
        return new ViewOptions(file, screenshot, view, w, h, sources, select, selfProfile);
    }

    private static String value(List<String> args, int i, String option) {
        if (i >= args.size()) throw new UserError("view: " + option + " needs a value");
        return args.get(i);
    }
}
