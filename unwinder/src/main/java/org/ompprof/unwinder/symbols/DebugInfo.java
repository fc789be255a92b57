package org.ompprof.unwinder.symbols;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.ElfFormatException;
import org.ompprof.unwinder.elf.Section;

/**
 * Whether asking llvm-symbolizer about a module can tell more than its symbol table: it has
 * DWARF line or unit information, or a separate debug file llvm-symbolizer will find (by build
 * id under /usr/lib/debug, or through .gnu_debuglink next to the file). Without either, the
 * symbol table answers the same much faster.
 */
final class DebugInfo {
    static final Path DEBUG_ROOT = Path.of("/usr/lib/debug");

    private DebugInfo() {}

    /** @param file where the image lives on disk, if anywhere (debuglink targets are found relative to it) */
    static boolean available(ElfFile elf, Optional<Path> file) {
        return hasDwarf(elf) || buildIdDebugFile(elf).isPresent() || debugLinkTarget(elf, file).isPresent();
    }

    static boolean hasDwarf(ElfFile elf) {
        for (Section s : elf.sections()) {
            if (s.type() == ElfFile.SHT_NOBITS || s.size() == 0) continue;
            String n = s.name();
            if (n.equals(".debug_info") || n.equals(".debug_line") || n.equals(".zdebug_info")) return true;
        }
        return false;
    }

    static Optional<Path> buildIdDebugFile(ElfFile elf) {
        Optional<String> id;
        try {
            id = elf.buildId();
        } catch (ElfFormatException e) {
            return Optional.empty();
        }
        if (id.isEmpty() || id.get().length() < 3) return Optional.empty();
        Path p = DEBUG_ROOT.resolve(".build-id").resolve(id.get().substring(0, 2)).resolve(id.get().substring(2) + ".debug");
        return Files.isRegularFile(p) ? Optional.of(p) : Optional.empty();
    }

    /** The places GDB and llvm-symbolizer look for a .gnu_debuglink name. */
    static Optional<Path> debugLinkTarget(ElfFile elf, Optional<Path> file) {
        Optional<String> link = debugLink(elf);
        if (link.isEmpty() || file.isEmpty()) return Optional.empty();
        try {
            Path dir = file.get().toAbsolutePath().getParent();
            if (dir == null) return Optional.empty();
            List<Path> candidates = new ArrayList<>(List.of(dir.resolve(link.get()), dir.resolve(".debug").resolve(link.get())));
            candidates.add(Path.of(DEBUG_ROOT + dir.toString()).resolve(link.get()));
            // The file itself may carry the link name (a debug file linking to itself is no help).
            return candidates.stream().filter(p -> !p.equals(file.get().toAbsolutePath())).filter(Files::isRegularFile).findFirst();
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> debugLink(ElfFile elf) {
        Optional<Section> s = elf.section(".gnu_debuglink");
        if (s.isEmpty()) return Optional.empty();
        try {
            byte[] b = elf.contents(s.get());
            int end = 0;
            while (end < b.length && b[end] != 0) end++;
            if (end == 0 || end == b.length) return Optional.empty();
            String name = new String(b, 0, end, StandardCharsets.UTF_8);
            return name.contains("/") ? Optional.empty() : Optional.of(name);
        } catch (ElfFormatException e) {
            return Optional.empty();
        }
    }
}
