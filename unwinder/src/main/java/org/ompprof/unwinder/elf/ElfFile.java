package org.ompprof.unwinder.elf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A 64-bit little-endian ELF image (x86-64): program headers, sections, symbol tables, build
 * id and needed libraries. Every read is bounds-checked, so a damaged or hostile file ends in
 * an {@link ElfFormatException} naming the offset, never in a crash or a hang.
 */
public final class ElfFile {
    public static final int PT_LOAD = 1, PT_DYNAMIC = 2, PT_NOTE = 4, PT_GNU_EH_FRAME = 0x6474e550;
    /** Section indexes from here up are special (absolute, common), not sections. */
    static final int SHN_LORESERVE = 0xff00;

    public static final int SHT_SYMTAB = 2, SHT_STRTAB = 3, SHT_NOTE = 7, SHT_NOBITS = 8, SHT_DYNSYM = 11;
    private static final long DT_NEEDED = 1, DT_NULL = 0;
    private static final int NT_GNU_BUILD_ID = 3;

    private final Bytes bytes;
    private final int type;
    private final List<ProgramHeader> programHeaders;
    private final List<Section> sections;

    private ElfFile(byte[] image) {
        this.bytes = new Bytes(image);
        checkIdent();
        this.type = bytes.u16(16);
        this.programHeaders = readProgramHeaders();
        this.sections = readSections();
    }

    public static ElfFile parse(byte[] image) {
        return new ElfFile(image);
    }

    public static ElfFile read(Path path) throws IOException {
        return parse(Files.readAllBytes(path));
    }

    /** e_type: 2 executable, 3 shared object or position-independent executable. */
    public int type() {
        return type;
    }

    public List<ProgramHeader> programHeaders() {
        return programHeaders;
    }

    public List<Section> sections() {
        return sections;
    }

    public Optional<Section> section(String name) {
        return sections.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /** The file bytes of a section (empty for NOBITS). */
    public byte[] contents(Section s) {
        if (s.type() == SHT_NOBITS) return new byte[0];
        return bytes.slice(s.offset(), s.size(), "section " + s.name());
    }

    /**
     * The file bytes {@code [offset, offset + length)}, for data found through the program
     * headers rather than a section (e.g. .eh_frame_hdr of a file without section headers).
     */
    public byte[] fileBytes(long offset, long length) {
        return bytes.slice(offset, length, "file range");
    }

    private void checkIdent() {
        if (bytes.size() < 64)
            throw new ElfFormatException("not an ELF file: too short (" + bytes.size() + " bytes)", 0);
        if (bytes.u32(0) != 0x464c457fL) throw new ElfFormatException("not an ELF file: bad magic", 0);
        if (bytes.u8(4) != 2) throw new ElfFormatException("not a 64-bit ELF file", 4);
        if (bytes.u8(5) != 1) throw new ElfFormatException("not a little-endian ELF file", 5);
    }

    private List<ProgramHeader> readProgramHeaders() {
        long off = bytes.u64(32);
        int entSize = bytes.u16(54), count = bytes.u16(56);
        if (count == 0) return List.of();
        if (entSize < 56) throw new ElfFormatException("program header entry size " + entSize + " too small", 54);
        bytes.require(off, (long) entSize * count, "program header table");
        List<ProgramHeader> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long p = off + (long) i * entSize;
            out.add(new ProgramHeader(
                    (int) bytes.u32(p),
                    (int) bytes.u32(p + 4),
                    bytes.u64(p + 8),
                    bytes.u64(p + 16),
                    bytes.u64(p + 32),
                    bytes.u64(p + 40)));
        }
        return List.copyOf(out);
    }

    private List<Section> readSections() {
        long off = bytes.u64(40);
        int entSize = bytes.u16(58), count = bytes.u16(60), nameIndex = bytes.u16(62);
        if (count == 0 || off == 0) return List.of();
        if (entSize < 64) throw new ElfFormatException("section header entry size " + entSize + " too small", 58);
        bytes.require(off, (long) entSize * count, "section header table");
        long[][] raw = new long[count][];
        for (int i = 0; i < count; i++) {
            long s = off + (long) i * entSize;
            raw[i] = new long[] {
                bytes.u32(s),
                bytes.u32(s + 4),
                bytes.u64(s + 8),
                bytes.u64(s + 16),
                bytes.u64(s + 24),
                bytes.u64(s + 32),
                bytes.u32(s + 40),
                bytes.u32(s + 44),
                bytes.u64(s + 56)
            };
        }
        long namesOff = -1, namesEnd = -1;
        if (nameIndex < count && raw[nameIndex][1] == SHT_STRTAB) {
            namesOff = raw[nameIndex][4];
            namesEnd = namesOff + raw[nameIndex][5];
            bytes.require(namesOff, raw[nameIndex][5], "section name table");
        }
        List<Section> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long[] r = raw[i];
            String name = namesOff < 0 ? "" : bytes.cString(namesOff + r[0], namesEnd);
            out.add(new Section(i, name, (int) r[1], r[2], r[3], r[4], r[5], (int) r[6], (int) r[7], r[8]));
        }
        return List.copyOf(out);
    }

    /**
     * The end of the section {@code s} is defined in, where that lies past the symbol: the most a zero-sized symbol
     * (hand-written assembly, crt's {@code _fini}) can reach. Empty for an absolute or special section index.
     */
    public OptionalLong sectionEnd(Symbol s) {
        int index = s.sectionIndex();
        if (index <= 0 || index >= sections.size() || index >= SHN_LORESERVE) return OptionalLong.empty();
        Section sec = sections.get(index);
        long end = sec.addr() + sec.size();
        return end > s.value() ? OptionalLong.of(end) : OptionalLong.empty();
    }

    /** Function and object symbols of .symtab and .dynsym (defined ones only). */
    public List<Symbol> symbols() {
        List<Symbol> out = new ArrayList<>();
        for (Section s : sections) {
            if (s.type() == SHT_SYMTAB || s.type() == SHT_DYNSYM) readSymbols(s, out);
        }
        return out;
    }

    /**
     * Whether .symtab or .dynsym defines a function named {@code name}: what {@link #symbols()} would say, read
     * in the string table's bytes, without a string for every symbol of a library of thousands.
     */
    public boolean definesFunction(String name) {
        return definedFunctions(Set.of(name)).contains(name);
    }

    /** Which of {@code names} .symtab or .dynsym defines as functions, as {@link #definesFunction}, in one pass. */
    public Set<String> definedFunctions(Set<String> names) {
        List<byte[]> wanted = new ArrayList<>();
        for (String n : names) wanted.add(n.getBytes(StandardCharsets.UTF_8));
        Set<String> found = new HashSet<>();
        for (Section s : sections) {
            if (s.type() == SHT_SYMTAB || s.type() == SHT_DYNSYM) definedFunctions(table(s), wanted, found);
        }
        return found;
    }

    /** A symbol table's entries and its string table, checked to lie in the file. */
    private record SymbolEntries(long offset, long entrySize, long count, long strings, long stringsEnd) {
        long entry(long i) {
            return offset + i * entrySize;
        }
    }

    private SymbolEntries table(Section table) {
        if (table.link() <= 0 || table.link() >= sections.size()) {
            throw new ElfFormatException("symbol table " + table.name() + " links to no string table", table.offset());
        }
        Section strings = sections.get(table.link());
        bytes.require(strings.offset(), strings.size(), "string table " + strings.name());
        bytes.require(table.offset(), table.size(), "symbol table " + table.name());
        long entSize = table.entrySize() == 0 ? 24 : table.entrySize();
        if (entSize < 24) throw new ElfFormatException("symbol entry size " + entSize + " too small", table.offset());
        return new SymbolEntries(
                table.offset(), entSize, table.size() / entSize, strings.offset(), strings.offset() + strings.size());
    }

    private void readSymbols(Section section, List<Symbol> out) {
        SymbolEntries table = table(section);
        for (long i = 1; i < table.count(); i++) {
            long e = table.entry(i);
            int info = bytes.u8(e + 4);
            int shndx = bytes.u16(e + 6);
            long value = bytes.u64(e + 8);
            if (shndx == 0 || value == 0) continue;
            long nameOff = bytes.u32(e);
            String name = nameOff == 0 ? "" : bytes.cString(table.strings() + nameOff, table.stringsEnd());
            out.add(new Symbol(name, value, bytes.u64(e + 16), info & 0xf, info >>> 4, shndx));
        }
    }

    private void definedFunctions(SymbolEntries table, List<byte[]> wanted, Set<String> found) {
        for (long i = 1; i < table.count() && found.size() < wanted.size(); i++) {
            long e = table.entry(i);
            if ((bytes.u8(e + 4) & 0xf) != Symbol.STT_FUNC || bytes.u16(e + 6) == 0 || bytes.u64(e + 8) == 0) continue;
            long nameOff = bytes.u32(e);
            if (nameOff == 0) continue;
            for (byte[] name : wanted) {
                if (bytes.cStringEquals(table.strings() + nameOff, table.stringsEnd(), name))
                    found.add(new String(name, StandardCharsets.UTF_8));
            }
        }
    }

    /** The GNU build id as lowercase hex, from the note sections or PT_NOTE segments. */
    public Optional<String> buildId() {
        for (Section s : sections) {
            if (s.type() == SHT_NOTE) {
                Optional<String> id = findBuildId(s.offset(), s.size());
                if (id.isPresent()) return id;
            }
        }
        for (ProgramHeader p : programHeaders) {
            if (p.type() == PT_NOTE) {
                Optional<String> id = findBuildId(p.offset(), p.fileSize());
                if (id.isPresent()) return id;
            }
        }
        return Optional.empty();
    }

    private Optional<String> findBuildId(long off, long size) {
        bytes.require(off, size, "note");
        long end = off + size;
        long p = off;
        while (p + 12 <= end) {
            long nameSize = bytes.u32(p), descSize = bytes.u32(p + 4), noteType = bytes.u32(p + 8);
            long desc = p + 12 + align4(nameSize);
            long next = desc + align4(descSize);
            if (next > end || next <= p) return Optional.empty();
            if (noteType == NT_GNU_BUILD_ID && nameSize == 4 && bytes.u32(p + 12) == 0x00554e47L) {
                return Optional.of(HexFormat.of().formatHex(bytes.slice(desc, descSize, "build id")));
            }
            p = next;
        }
        return Optional.empty();
    }

    private static long align4(long n) {
        return (n + 3) & ~3L;
    }

    /** DT_NEEDED entries of the dynamic section, in order. */
    public List<String> needed() {
        Optional<Section> dynamic = section(".dynamic");
        if (dynamic.isEmpty()) return List.of();
        Section dyn = dynamic.get();
        bytes.require(dyn.offset(), dyn.size(), ".dynamic");
        if (dyn.link() <= 0 || dyn.link() >= sections.size()) return List.of();
        Section strings = sections.get(dyn.link());
        bytes.require(strings.offset(), strings.size(), ".dynstr");
        List<String> out = new ArrayList<>();
        for (long p = dyn.offset(); p + 16 <= dyn.offset() + dyn.size(); p += 16) {
            long tag = bytes.u64(p);
            if (tag == DT_NULL) break;
            if (tag == DT_NEEDED) {
                out.add(bytes.cString(strings.offset() + bytes.u64(p + 8), strings.offset() + strings.size()));
            }
        }
        return out;
    }
}
