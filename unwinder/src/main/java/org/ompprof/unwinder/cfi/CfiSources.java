package org.ompprof.unwinder.cfi;

import java.util.Optional;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.ElfFormatException;
import org.ompprof.unwinder.elf.ProgramHeader;
import org.ompprof.unwinder.elf.Section;

/**
 * The call-frame sections of one module, found by section name or, when the section headers
 * are gone, through PT_GNU_EH_FRAME and the header's pointer to .eh_frame. {@code textVaddr}
 * is the base for textrel pointers ({@link PointerBases#UNKNOWN} without .text).
 */
public record CfiSources(
        Optional<SectionData> ehFrameHdr,
        Optional<SectionData> ehFrame,
        Optional<SectionData> debugFrame,
        long textVaddr) {
    private static final long SHF_COMPRESSED = 0x800;

    public static CfiSources none() {
        return new CfiSources(Optional.empty(), Optional.empty(), Optional.empty(), PointerBases.UNKNOWN);
    }

    /** Reads the sections; throws {@link ElfFormatException} if they lie outside the file. */
    public static CfiSources of(ElfFile elf) {
        Optional<SectionData> hdr = section(elf, ".eh_frame_hdr");
        Optional<SectionData> eh = section(elf, ".eh_frame");
        // Compressed .debug_frame (SHF_COMPRESSED) would need inflating first; it is left out.
        Optional<SectionData> debug = elf.section(".debug_frame")
                .filter(s -> (s.flags() & SHF_COMPRESSED) == 0)
                .flatMap(s -> section(elf, s.name()));
        long text = elf.section(".text").map(Section::addr).orElse(PointerBases.UNKNOWN);
        if (hdr.isEmpty()) hdr = segment(elf, ElfFile.PT_GNU_EH_FRAME, ".eh_frame_hdr");
        if (eh.isEmpty() && hdr.isPresent()) eh = ehFrameFromHeader(elf, hdr.get());
        return new CfiSources(hdr, eh, debug, text);
    }

    private static Optional<SectionData> section(ElfFile elf, String name) {
        return elf.section(name)
                .filter(s -> s.type() != ElfFile.SHT_NOBITS && s.size() > 0)
                .map(s -> new SectionData(name, elf.contents(s), s.addr()));
    }

    private static Optional<SectionData> segment(ElfFile elf, int type, String name) {
        return elf.programHeaders().stream()
                .filter(p -> p.type() == type && p.fileSize() > 0)
                .findFirst()
                .map(p -> new SectionData(name, elf.fileBytes(p.offset(), p.fileSize()), p.vaddr()));
    }

    /** Without section headers .eh_frame has no recorded size: it runs to its terminator, inside its segment. */
    private static Optional<SectionData> ehFrameFromHeader(ElfFile elf, SectionData hdr) {
        long start;
        try {
            start = EhFrameHdr.parse(hdr).ehFramePointer();
        } catch (CfiFormatException e) {
            return Optional.empty();
        }
        for (ProgramHeader p : elf.programHeaders()) {
            if (p.type() == ElfFile.PT_LOAD && p.vaddr() <= start && start < p.vaddr() + p.fileSize()) {
                long offset = p.offset() + (start - p.vaddr());
                long length = p.vaddr() + p.fileSize() - start;
                return Optional.of(new SectionData(".eh_frame", elf.fileBytes(offset, length), start));
            }
        }
        return Optional.empty();
    }
}
