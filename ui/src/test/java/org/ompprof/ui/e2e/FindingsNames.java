package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.ProfileReader;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.ui.report.Finding;
import org.ompprof.ui.report.Report;

/** Checks that findings name the program's own code, never a system library's or the OpenMP runtime's. */
final class FindingsNames {
    private FindingsNames() {}

    /**
     * The profile's findings (returned) neither point at (the context the viewer shows) nor name a frame of the
     * runtime, a system library or the vDSO.
     */
    static List<Finding> assertProgramsOwn(Path profile) {
        Profile p;
        try (Recording r = Recording.open(profile)) {
            p = ProfileReader.read(r);
        }
        CallingContextTree tree = p.tree();
        List<Finding> found = Report.findings(p);
        for (Finding f : found) {
            if (f.node() >= 0)
                assertFalse(
                        isSystem(tree.frameOf(f.node())),
                        "the finding points at " + tree.frameOf(f.node()) + ": " + f.text());
        }
        for (int n = 1; n < tree.size(); n++) {
            Frame frame = tree.frameOf(n);
            if (!isSystem(frame)) continue;
            Pattern name = Pattern.compile("\\b" + Pattern.quote(frame.name()) + "\\b");
            for (Finding f : found)
                assertFalse(name.matcher(f.text()).find(), "a finding names " + frame + ": " + f.text());
        }
        return found;
    }

    /** A frame of the OpenMP runtime or a system library (the vDSO included), not the program's. */
    static boolean isSystem(Frame f) {
        String m = f.module();
        return f.kind() == FrameKind.RUNTIME
                || m != null
                        && (m.startsWith("/lib/")
                                || m.startsWith("/usr/lib/")
                                || m.contains("vdso")
                                || m.contains("libomp"));
    }
}
