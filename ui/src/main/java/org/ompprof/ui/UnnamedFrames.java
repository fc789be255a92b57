package org.ompprof.ui;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameTable;
import org.ompprof.sampler.recording.ModuleInfo;

/**
 * The frames of a profile that nothing could name (shown as {@code module+0xoffset}), counted
 * per module, and for each module the Debian package whose {@code -dbgsym} would name them.
 */
final class UnnamedFrames {
    private UnnamedFrames() {}

    /** Distinct unnamed frames per module path (or the frame's module text when no module matches). */
    static Map<String, Integer> count(FrameTable frames, List<ModuleInfo> modules) {
        Map<String, Integer> out = new TreeMap<>();
        for (int i = 0; i < frames.size(); i++) {
            Frame f = frames.frame(i);
            if (f.module() == null || !unnamed(f)) continue;
            out.merge(pathOf(f.module(), modules), 1, Integer::sum);
        }
        return out;
    }

    /** The symbolizer's stand-in for a name: {@code file+0xoffset} (the file as the image was mapped). */
    private static final java.util.regex.Pattern OFFSET_NAME =
            java.util.regex.Pattern.compile("[^/\\s]+\\+0x[0-9a-f]+");

    /** No function, or the symbolizer's stand-in {@code module+0xoffset} for one. */
    static boolean unnamed(Frame f) {
        return f.function() == null || OFFSET_NAME.matcher(f.function()).matches();
    }

    private static String pathOf(String module, List<ModuleInfo> modules) {
        for (ModuleInfo m : modules) {
            if (m.path().equals(module)) return m.path();
        }
        String base = module.substring(module.lastIndexOf('/') + 1);
        for (ModuleInfo m : modules) {
            if (m.path().endsWith("/" + base)) return m.path();
        }
        return module;
    }

    /**
     * One line per module: its unnamed frames and, for a file a Debian package owns, the
     * {@code -dbgsym} package that would name them ({@code packageOf} is asked once per module).
     */
    static List<String> lines(Map<String, Integer> counts, Function<String, java.util.Optional<String>> packageOf) {
        return counts.entrySet().stream()
                .map(e -> {
                    String n = e.getValue() + " unnamed frame" + (e.getValue() == 1 ? "" : "s") + " in " + e.getKey();
                    return n
                            + packageOf
                                    .apply(e.getKey())
                                    .map(p -> " (to name them, install " + debugPackage(p) + ")")
                                    .orElse("");
                })
                .toList();
    }

    /** Debian's debug package of a package: its automatic -dbgsym from the debug archive; glibc's own libc6-dbg. */
    private static String debugPackage(String p) {
        return p.equals("libc6") ? "libc6-dbg" : p + "-dbgsym from Debian's debug archive";
    }
}
