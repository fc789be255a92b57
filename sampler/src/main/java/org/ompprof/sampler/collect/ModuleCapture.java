package org.ompprof.sampler.collect;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import org.ompprof.sampler.record.ModuleLoad;
import org.ompprof.sampler.record.ModuleUnload;
import org.ompprof.sampler.recording.ImageSource;
import org.ompprof.sampler.recording.ModuleInfo;
import org.ompprof.sampler.wire.Wire;

/**
 * Secures the image of every module the program loads, while the program runs, because the
 * file may be gone by the time the recording is analysed (temp files, rebuilt binaries). System
 * files are only referenced; everything else is copied into the spool. A file that changed or
 * vanished is read through the fd the agent holds open, {@code /proc/PID/fd/FD}. Failures are
 * noted, never fatal.
 */
final class ModuleCapture {
    private static final List<String> SYSTEM_PREFIXES =
            List.of("/usr/", "/lib/", "/lib64/", "/opt/", "/etc/", "/snap/");

    private final Spool spool;
    private final LongSupplier programPid;
    private final LongConsumer capturedHeldFds;
    private final Map<Long, ModuleInfo> modules = new LinkedHashMap<>();
    private final Map<Long, Spool.Span> images = new LinkedHashMap<>();
    private final List<String> notCaptured = new ArrayList<>();
    private long heldFdModules;

    /**
     * @param programPid the pid whose /proc/PID/fd holds the agent's fds
     * @param capturedHeldFds told the count of FD_HELD modules processed so far (the agent waits
     *     for it at exit before closing the fds)
     */
    ModuleCapture(Spool spool, LongSupplier programPid, LongConsumer capturedHeldFds) {
        this.spool = spool;
        this.programPid = programPid;
        this.capturedHeldFds = capturedHeldFds;
    }

    void loaded(ModuleLoad m) {
        ModuleInfo info = secure(m, describe(m));
        modules.put(m.moduleId(), info);
        if (info.image() == ImageSource.MISSING) notCaptured.add(m.path() + ": " + info.note());
        if (m.has(Wire.MOD_FD_HELD)) capturedHeldFds.accept(++heldFdModules);
    }

    void unloaded(ModuleUnload u) {
        modules.computeIfPresent(u.moduleId(), (id, m) -> m.withUnload(u.timeNs()));
    }

    List<ModuleInfo> modules() {
        return List.copyOf(modules.values());
    }

    /** Where each EMBEDDED image is in the spool. */
    Map<Long, Spool.Span> images() {
        return images;
    }

    /** "PATH: why" for each image not captured. */
    List<String> notCaptured() {
        return List.copyOf(notCaptured);
    }

    private static ModuleInfo describe(ModuleLoad m) {
        return new ModuleInfo(
                m.moduleId(),
                m.path(),
                m.flags(),
                m.loadBias(),
                m.ehFrameHdr(),
                m.dev(),
                m.ino(),
                m.fileSize(),
                m.mtimeNs(),
                m.buildId(),
                m.segments(),
                m.timeNs(),
                0,
                ImageSource.MISSING,
                "",
                0,
                "");
    }

    private ModuleInfo secure(ModuleLoad m, ModuleInfo info) {
        try {
            if (m.has(Wire.MOD_VDSO)) {
                if (m.image().byteSize() == 0)
                    return info.withImage(ImageSource.MISSING, "", 0, "vDSO record without its image");
                return embedded(info, spool.appendBytes(m.image()));
            }
            Path path = Path.of(m.path());
            if (!m.path().isEmpty() && sameFile(path, m)) {
                Path real = path.toRealPath();
                if (isSystem(real)) return info.withImage(ImageSource.REFERENCE, real.toString(), 0, "");
                return copy(info, path, m);
            }
            if (m.has(Wire.MOD_FD_HELD) && m.fd() >= 0) {
                Path held = Path.of("/proc", Long.toString(programPid.getAsLong()), "fd", Integer.toString(m.fd()));
                if (sameFile(held, m)) return copy(info, held, m);
                return info.withImage(
                        ImageSource.MISSING, "", 0, "changed on disk, and the fd the agent held does not match");
            }
            String why = m.has(Wire.MOD_NO_FILE) ? "the agent could not open it" : "deleted or changed during the run";
            return info.withImage(ImageSource.MISSING, "", 0, why);
        } catch (IOException | RuntimeException e) {
            return info.withImage(ImageSource.MISSING, "", 0, "cannot read it: " + e.getMessage());
        }
    }

    private ModuleInfo copy(ModuleInfo info, Path from, ModuleLoad m) throws IOException {
        Spool.Span span = spool.appendFile(from);
        if (span.length() != m.fileSize()) {
            return info.withImage(
                    ImageSource.MISSING,
                    "",
                    0,
                    "changed while it was copied (" + span.length() + " of " + m.fileSize() + " bytes)");
        }
        return embedded(info, span);
    }

    private ModuleInfo embedded(ModuleInfo info, Spool.Span span) {
        images.put(info.moduleId(), span);
        return info.withImage(ImageSource.EMBEDDED, "", span.length(), "");
    }

    static boolean isSystem(Path realPath) {
        String p = realPath.toString();
        return SYSTEM_PREFIXES.stream().anyMatch(p::startsWith);
    }

    /** Whether {@code path} is still the file the agent saw: same device, inode, size and mtime. */
    static boolean sameFile(Path path, ModuleLoad m) {
        try {
            Map<String, Object> a = Files.readAttributes(path, "unix:dev,ino,size,lastModifiedTime");
            long mtime = ((FileTime) a.get("lastModifiedTime")).to(TimeUnit.NANOSECONDS);
            return (long) a.get("dev") == m.dev()
                    && (long) a.get("ino") == m.ino()
                    && (long) a.get("size") == m.fileSize()
                    && mtime == m.mtimeNs();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
