package org.ompprof.unwinder.image;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.ElfFormatException;
import org.ompprof.unwinder.stack.Module;

/**
 * For modules made without {@link ModuleImages} (e.g. {@code Module.open(path, bias)}): the
 * module's name as a path, if that file still has the same build id, program headers and
 * section headers as the parsed image. The check reads the file once per image.
 */
final class ModuleNameOrigins implements ImageOrigins {
    private final Map<ElfFile, Optional<ImageOrigin>> checked = new ConcurrentHashMap<>();

    @Override
    public Optional<ImageOrigin> originOf(Module module) {
        return checked.computeIfAbsent(module.elf(), elf -> check(module.name(), elf));
    }

    private static Optional<ImageOrigin> check(String name, ElfFile elf) {
        try {
            Path path = Path.of(name);
            if (!Files.isRegularFile(path)) return Optional.empty();
            ElfFile onDisk = ElfFile.read(path);
            boolean same = onDisk.buildId().equals(elf.buildId())
                    && onDisk.programHeaders().equals(elf.programHeaders())
                    && onDisk.sections().equals(elf.sections());
            return same ? Optional.of(new ImageOrigin.OnDisk(path.toAbsolutePath())) : Optional.empty();
        } catch (IOException | InvalidPathException | ElfFormatException e) {
            return Optional.empty();
        }
    }
}
