package org.ompprof.ui.report;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.ompprof.calltree.profile.DeviceTable;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.ModuleInfo;

/**
 * Why a program that loaded the offload runtime (libomptarget) shows no device: either
 * libomptarget never connected to the host runtime's OMPT, or it found no device to run on.
 */
public final class OffloadNote {
    static final String LIBOMPTARGET = "libomptarget.so";

    private OffloadNote() {}

    /** The note, when the program loaded libomptarget and no device connected; empty otherwise. */
    public static Optional<String> of(Metadata m, List<ModuleInfo> modules, DeviceTable devices) {
        if (!devices.devices().isEmpty() || !loadsOffloadRuntime(modules)) return Optional.empty();
        String lead = "the program loaded libomptarget, but no device connected to OMPT: ";
        return Optional.of(lead
                + m.get(Metadata.OFFLOAD_LIBOMP)
                        .map(libomp -> "libomptarget could load the runtime (libomp.so was "
                                + libomp
                                + "), so it found no device or every target region ran on the host "
                                + "(OMP_TARGET_OFFLOAD=disabled, "
                                + "if(false) clauses); LIBOMPTARGET_INFO=-1 shows which")
                        .orElse("libomptarget connects by loading libomp.so, which ompprof could only provide "
                                + "for a program it starts "
                                + "directly; record the program itself, not a script, or put the "
                                + "directory of the program's libomp.so "
                                + "first in LD_LIBRARY_PATH"));
    }

    private static boolean loadsOffloadRuntime(List<ModuleInfo> modules) {
        return modules.stream()
                .map(mod -> Path.of(mod.path()).getFileName())
                .anyMatch(n -> n != null && n.toString().startsWith(LIBOMPTARGET));
    }
}
