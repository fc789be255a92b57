package org.ompprof.unwinder.symbols;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.ElfFormatException;
import org.ompprof.unwinder.elf.Section;

/**
 * Finds a module's separate debug file the way GDB does: by build id under
 * {@code ROOT/.build-id/xx/yyyy.debug}, else by its {@code .gnu_debuglink} name next to the
 * module, in {@code .debug/} beside it and under {@code ROOT} + the module's directory, a
 * candidate counting only when its CRC32 matches the link's.
 *
 * @param root the global debug directory ({@code /usr/lib/debug} by default)
 */
record DebugFileLookup(Path root) {
    /** The system property that moves the global debug directory (tests; unusual installs). */
    static final String ROOT_PROPERTY = "ompprof.debugRoot";

    static final Path DEFAULT_ROOT = Path.of("/usr/lib/debug");

    /** With the root the {@value #ROOT_PROPERTY} property names, else {@link #DEFAULT_ROOT}. */
    static DebugFileLookup fromSystem() {
        String p = System.getProperty(ROOT_PROPERTY);
        return new DebugFileLookup(p == null || p.isBlank() ? DEFAULT_ROOT : Path.of(p));
    }

    /** @param file where the module lives on disk, if anywhere (debuglink targets are found relative to it) */
    Optional<Path> find(ElfFile elf, Optional<Path> file) {
        Optional<Path> byId = byBuildId(elf);
        return byId.isPresent() ? byId : byDebugLink(elf, file);
    }

    Optional<Path> byBuildId(ElfFile elf) {
        Optional<String> id;
        try {
            id = elf.buildId();
        } catch (ElfFormatException e) {
            return Optional.empty();
        }
        if (id.isEmpty() || id.get().length() < 3) return Optional.empty();
        Path p = root.resolve(".build-id")
                .resolve(id.get().substring(0, 2))
                .resolve(id.get().substring(2) + ".debug");
        return Files.isRegularFile(p) ? Optional.of(p) : Optional.empty();
    }

    Optional<Path> byDebugLink(ElfFile elf, Optional<Path> file) {
        Optional<DebugLink> link = DebugLink.of(elf);
        if (link.isEmpty() || file.isEmpty()) return Optional.empty();
        try {
            Path self = file.get().toAbsolutePath();
            for (Path p : candidates(self, link.get().name())) {
                if (!p.equals(self) && Files.isRegularFile(p) && link.get().matches(p)) return Optional.of(p);
            }
            return Optional.empty();
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
    }

    private List<Path> candidates(Path self, String name) {
        Path dir = self.getParent();
        if (dir == null) return List.of();
        List<Path> out =
                new ArrayList<>(List.of(dir.resolve(name), dir.resolve(".debug").resolve(name)));
        out.add(Path.of(root + dir.toString()).resolve(name));
        return out;
    }

    /** A {@code .gnu_debuglink}: the debug file's name and the CRC32 of its contents. */
    record DebugLink(String name, int crc) {
        static Optional<DebugLink> of(ElfFile elf) {
            Optional<Section> s = elf.section(".gnu_debuglink");
            if (s.isEmpty()) return Optional.empty();
            try {
                return parse(elf.contents(s.get()));
            } catch (ElfFormatException e) {
                return Optional.empty();
            }
        }

        /** Name, NUL, padding to 4, then the little-endian CRC32; anything else is no link. */
        static Optional<DebugLink> parse(byte[] b) {
            int end = 0;
            while (end < b.length && b[end] != 0) end++;
            int crcAt = (end + 4) & ~3;
            if (end == 0 || crcAt + 4 > b.length) return Optional.empty();
            String name = new String(b, 0, end, StandardCharsets.UTF_8);
            if (name.contains("/")) return Optional.empty();
            return Optional.of(new DebugLink(
                    name,
                    ByteBuffer.wrap(b, crcAt, 4).order(ByteOrder.LITTLE_ENDIAN).getInt()));
        }

        boolean matches(Path candidate) {
            try {
                CRC32 crc = new CRC32();
                crc.update(Files.readAllBytes(candidate));
                return (int) crc.getValue() == this.crc;
            } catch (IOException | OutOfMemoryError e) {
                return false;
            }
        }
    }
}
