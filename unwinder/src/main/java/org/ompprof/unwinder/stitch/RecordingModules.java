package org.ompprof.unwinder.stitch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import org.ompprof.sampler.recording.ModuleInfo;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.wire.Wire;
import org.ompprof.unwinder.elf.Symbol;
import org.ompprof.unwinder.image.ImageResolution;
import org.ompprof.unwinder.image.ModuleImage;
import org.ompprof.unwinder.image.ModuleImages;
import org.ompprof.unwinder.stack.AddressRange;
import org.ompprof.unwinder.stack.AddressSpace;
import org.ompprof.unwinder.stack.Frame;
import org.ompprof.unwinder.stack.Module;

/**
 * The modules of one recording as the stitcher needs them: an address space to unwind in,
 * which modules are the OpenMP runtime (or the profiler's own agent), where {@code main} is,
 * and, for pcs whose module has no usable image, which recorded module they still fall in.
 */
final class RecordingModules {
    /** Defined by every libomp build (and its GOMP-compatible aliases), by no user program. */
    private static final String RUNTIME_MARKER = "__kmpc_fork_call";
    /** Defined by the C library (glibc's and musl's), which starts the program and every thread. */
    private static final String C_LIBRARY_MARKER = "__libc_start_main";

    private final AddressSpace space;
    private final Map<Module, ModuleInfo> infoOf = new IdentityHashMap<>();
    private final Map<Module, Boolean> runtime = new IdentityHashMap<>();
    private final Map<Long, Module> byId = new HashMap<>();
    private final ModuleByPc byPc;
    private final AddressRange main;
    private final List<Module> commonlyNamed = new ArrayList<>();

    RecordingModules(Recording recording, ModuleImages images) {
        List<AddressSpace.Transient> transients = new ArrayList<>();
        List<Module> usable = resolve(recording, images, transients);
        space = AddressSpace.of(usable, transients);
        List<Module> all = new ArrayList<>(usable);
        for (AddressSpace.Transient t : transients) all.add(t.module());
        for (Module m : all) {
            ModuleInfo info = infoOf.get(m);
            Set<String> defined = definedMarkers(m);
            // unreadable symbols: user code, hiding nothing
            runtime.put(m, info.has(Wire.MOD_AGENT) || defined.contains(RUNTIME_MARKER));
            if (info.has(Wire.MOD_MAIN) || defined.contains(C_LIBRARY_MARKER)) commonlyNamed.add(m);
        }
        main = findMain(usable);
        byPc = new ModuleByPc(recording.modules());
    }

    /**
     * Starts loading the recording's images on {@code pool}, last first, while the constructor resolves them first
     * first on its own thread: the two meet in the middle, each image loaded once ({@link ModuleImages} waits for a
     * load under way), and reading, checking and parsing the big libraries is shared between two cores.
     */
    static void loadAhead(Recording recording, ModuleImages images, Executor pool) {
        List<ModuleInfo> order = inOrder(recording);
        for (ModuleInfo info : order.reversed()) {
            ModuleImage request = request(recording, info);
            if (request != null) pool.execute(() -> images.resolve(request)); // never throws: unusable images are noted
        }
    }

    /**
     * Modules still loaded at the end go first; a module whose code overlaps one already taken
     * (a library unloaded and another loaded at its place) is a transient, the place's for the time it was mapped (one
     * never unloaded is left out rather than failing the whole recording).
     */
    private List<Module> resolve(Recording recording, ModuleImages images, List<AddressSpace.Transient> transients) {
        List<Module> out = new ArrayList<>();
        List<AddressRange> taken = new ArrayList<>();
        for (ModuleInfo info : inOrder(recording)) {
            ModuleImage request = request(recording, info);
            if (request == null || !(images.resolve(request) instanceof ImageResolution.Resolved r)) continue;
            Module m = r.module();
            boolean overlaps = m.ranges().stream()
                    .anyMatch(a -> taken.stream().anyMatch(b -> a.start() < b.end() && b.start() < a.end()));
            if (overlaps && info.unloadNs() == 0) continue;
            infoOf.put(m, info);
            byId.put(info.moduleId(), m);
            if (overlaps) {
                transients.add(new AddressSpace.Transient(m, info.loadNs(), info.unloadNs()));
                continue;
            }
            taken.addAll(m.ranges());
            out.add(m);
        }
        return out;
    }

    private static List<ModuleInfo> inOrder(Recording recording) {
        List<ModuleInfo> order = new ArrayList<>(recording.modules());
        order.sort(RecordingModules::loadOrder);
        return order;
    }

    /**
     * Those still loaded at the end first, then those loaded longest, then by load time (not Comparator.comparing: its
     * lambdas link anew): of two libraries loaded in turn at one place, the one mapped there longer takes it (an MPI's
     * initialization loads and unloads dozens of components and libraries, sampled since the program's start, before
     * the ones it keeps are loaded at their places).
     */
    private static int loadOrder(ModuleInfo a, ModuleInfo b) {
        boolean aUnloaded = a.unloadNs() != 0, bUnloaded = b.unloadNs() != 0;
        if (aUnloaded != bUnloaded) return Boolean.compare(aUnloaded, bUnloaded);
        if (aUnloaded) {
            int longer = Long.compare(b.unloadNs() - b.loadNs(), a.unloadNs() - a.loadNs());
            if (longer != 0) return longer;
        }
        return Long.compare(a.loadNs(), b.loadNs());
    }

    private static ModuleImage request(Recording recording, ModuleInfo m) {
        return switch (m.image()) {
            case EMBEDDED ->
                ModuleImage.embedded(
                        m.path(),
                        m.buildId(),
                        m.fileSize(),
                        m.mtimeNs(),
                        m.loadBias(),
                        () -> recording.moduleImage(m.moduleId()).orElseThrow());
            case REFERENCE ->
                ModuleImage.onDisk(
                        m.imagePath().isEmpty() ? m.path() : m.imagePath(),
                        m.buildId(),
                        m.fileSize(),
                        m.mtimeNs(),
                        m.loadBias());
            case MISSING, USED -> null;
        };
    }

    /** Which of the runtime's and the C library's marker functions the module defines: one pass over its symbols. */
    private static Set<String> definedMarkers(Module m) {
        try {
            return m.elf().definedFunctions(Set.of(RUNTIME_MARKER, C_LIBRARY_MARKER));
        } catch (RuntimeException e) {
            return Set.of();
        }
    }

    /** The runtime range of the main program's {@code main}, or null if its symbol is not there. */
    private AddressRange findMain(List<Module> modules) {
        for (Module m : modules) {
            if (!infoOf.get(m).has(Wire.MOD_MAIN)) continue;
            try {
                for (Symbol s : m.elf().symbols()) {
                    if (s.isFunction() && s.name().equals("main") && s.size() > 0) {
                        return new AddressRange(s.value() + m.bias(), s.value() + s.size() + m.bias());
                    }
                }
            } catch (RuntimeException e) {
                return null;
            }
        }
        return null;
    }

    /**
     * The modules nearly every profile names, whatever the program: the program's own (every path from {@code main}
     * begins there) and the C library (where threads start and many samples end: copies, allocation, system calls).
     */
    List<Module> commonlyNamed() {
        return List.copyOf(commonlyNamed);
    }

    AddressSpace space() {
        return space;
    }

    /** True for frames in the OpenMP runtime or the profiler's agent. */
    boolean isRuntime(Frame f) {
        return f.module() != null && runtime.getOrDefault(f.module(), false);
    }

    /** True if the recorded module is the OpenMP runtime or the agent (false when its image is unusable). */
    boolean isRuntime(long moduleId) {
        Module m = byId.get(moduleId);
        return m != null && runtime.getOrDefault(m, false);
    }

    /** True if the frame is in the program's {@code main}. */
    boolean isMain(Frame f) {
        return main != null && main.contains(f.lookupPc());
    }

    /** The path element for an unwound frame. */
    PathFrame toPathFrame(Frame f) {
        ModuleInfo info = f.module() != null ? infoOf.get(f.module()) : byPc.find(f.pc());
        if (info == null) return new PathFrame.Unmapped(f.pc());
        return new PathFrame.Code(info.moduleId(), info.path(), f.pc() - info.loadBias(), f.isReturnAddress());
    }

    /** The module an id names, if its image could be loaded. */
    Module module(long moduleId) {
        return byId.get(moduleId);
    }
}
