package org.ompprof.unwinder.stitch;

import java.util.Set;
import java.util.stream.Collectors;
import org.ompprof.sampler.recording.ModuleInfo;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.wire.Wire;

/** Which recorded modules are the program and which the OpenMP runtime (or the agent), by the recording alone. */
record ModuleRoles(Set<Long> program, Set<Long> runtime) {
    static ModuleRoles of(Recording r) {
        Set<Long> program = r.modules().stream()
                .filter(m -> m.has(Wire.MOD_MAIN))
                .map(ModuleInfo::moduleId)
                .collect(Collectors.toSet());
        Set<Long> runtime = r.modules().stream()
                .filter(m -> m.has(Wire.MOD_AGENT) || m.path().contains("libomp"))
                .map(ModuleInfo::moduleId)
                .collect(Collectors.toSet());
        return new ModuleRoles(program, runtime);
    }

    boolean isProgram(long moduleId) {
        return program.contains(moduleId);
    }

    boolean isRuntime(long moduleId) {
        return runtime.contains(moduleId);
    }
}
