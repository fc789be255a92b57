package org.ompprof.unwinder.image;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.TimeUnit;
import org.ompprof.unwinder.cfi.ModuleCfi;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.ElfFormatException;

/** Reads and verifies one image: embedded bytes first, else the file if it is still the same one. */
final class ImageLoader {
    /** Either an image or the reason there is none. */
    record Outcome(LoadedImage image, String reason) {
        static Outcome of(LoadedImage image) {
            return new Outcome(image, null);
        }

        static Outcome unavailable(String reason) {
            return new Outcome(null, reason);
        }
    }

    private ImageLoader() {}

    static Outcome load(ModuleImage m) {
        return m.isEmbedded() ? fromRecording(m) : fromDisk(m);
    }

    private static Outcome fromRecording(ModuleImage m) {
        byte[] bytes;
        try {
            bytes = m.embedded().read();
        } catch (IOException e) {
            return Outcome.unavailable("the embedded image of " + m.path() + " cannot be read: " + e.getMessage());
        }
        return verified(m, bytes, "the embedded image of " + m.path(), new ImageOrigin.InMemory(bytes));
    }

    private static Outcome fromDisk(ModuleImage m) {
        Path path;
        try {
            path = Path.of(m.path());
        } catch (InvalidPathException e) {
            return Outcome.unavailable("not embedded in the recording, and " + m.path() + " is not a valid path");
        }
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.values());
        } catch (IOException e) {
            return Outcome.unavailable("not embedded in the recording, and " + m.path() + " is gone");
        }
        if (!attrs.isRegularFile()) return Outcome.unavailable(m.path() + " is not a regular file");
        if (!m.hasBuildId()) {
            String changed = sizeOrMtimeChange(m, attrs);
            if (changed != null) return Outcome.unavailable(changed);
        }
        return readAndVerify(m, path);
    }

    private static Outcome readAndVerify(ModuleImage m, Path path) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (IOException | OutOfMemoryError e) {
            return Outcome.unavailable("cannot read " + m.path() + ": " + e.getMessage());
        }
        return verified(m, bytes, m.path(), new ImageOrigin.OnDisk(path.toAbsolutePath()));
    }

    private static String sizeOrMtimeChange(ModuleImage m, BasicFileAttributes attrs) {
        long mtime = attrs.lastModifiedTime().to(TimeUnit.NANOSECONDS);
        if (attrs.size() == m.fileSize() && mtime == m.mtimeNs()) return null;
        return m.path() + " has no build id and changed since it was recorded (size " + m.fileSize() + " -> "
                + attrs.size() + ", mtime " + m.mtimeNs() + " ns -> " + mtime + " ns)";
    }

    private static String buildIdMismatch(ModuleImage m, ElfFile elf, String what) {
        if (!m.hasBuildId()) return null;
        String actual = elf.buildId().orElse("");
        if (actual.equals(m.buildId())) return null;
        return what + " has build id " + (actual.isEmpty() ? "(none)" : actual) + " but the recording saw "
                + m.buildId() + " (the file was rebuilt or replaced)";
    }

    private static Outcome verified(ModuleImage m, byte[] bytes, String what, ImageOrigin origin) {
        ElfFile elf;
        try {
            elf = ElfFile.parse(bytes);
            elf.buildId(); // walks the notes: fail here rather than in the middle of an unwind
        } catch (ElfFormatException e) {
            return Outcome.unavailable(what + " is not a usable ELF file: " + e.getMessage());
        }
        String mismatch = buildIdMismatch(m, elf, what);
        if (mismatch != null) return Outcome.unavailable(mismatch);
        return Outcome.of(new LoadedImage(elf, ModuleCfi.of(elf), origin));
    }
}
