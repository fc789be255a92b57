package org.ompprof.unwinder.symbols;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.ElfFormatException;
import org.ompprof.unwinder.elf.Section;
import org.tukaani.xz.XZInputStream;

/**
 * MiniDebugInfo: the {@code .gnu_debugdata} section Fedora and Debian leave in stripped
 * binaries, an xz-compressed ELF whose {@code .symtab} holds the functions stripping removed
 * (those not already in {@code .dynsym}).
 */
final class MiniDebugInfo {
    /** A MiniDebugInfo ELF holds symbols only; far below this even for the largest libraries. */
    static final int MAX_DECOMPRESSED = 256 << 20;
    /** Memory xz may use for its dictionary, in KiB. */
    private static final int XZ_MEMORY_LIMIT_KIB = 256 << 10;

    private MiniDebugInfo() {}

    /**
     * The embedded ELF, or empty when the image has no {@code .gnu_debugdata}.
     *
     * @throws ElfFormatException when the section is there but is no xz-compressed ELF
     */
    static Optional<ElfFile> of(ElfFile elf) {
        Optional<Section> s = elf.section(".gnu_debugdata");
        if (s.isEmpty() || s.get().type() == ElfFile.SHT_NOBITS) return Optional.empty();
        return Optional.of(
                ElfFile.parse(decompress(elf.contents(s.get()), s.get().offset())));
    }

    /** The xz stream's contents; a damaged, truncated or oversized stream is an {@link ElfFormatException}. */
    static byte[] decompress(byte[] xz, long offset) {
        try (InputStream in = new XZInputStream(new ByteArrayInputStream(xz), XZ_MEMORY_LIMIT_KIB)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(xz.length * 4);
            byte[] buf = new byte[64 << 10];
            for (int n; (n = in.read(buf)) > 0; ) {
                if (out.size() + n > MAX_DECOMPRESSED) {
                    throw new ElfFormatException(
                            ".gnu_debugdata decompresses to more than " + MAX_DECOMPRESSED + " bytes", offset);
                }
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        } catch (IOException | RuntimeException e) {
            if (e instanceof ElfFormatException f) throw f;
            throw new ElfFormatException(".gnu_debugdata is no valid xz stream (" + e + ")", offset);
        }
    }
}
