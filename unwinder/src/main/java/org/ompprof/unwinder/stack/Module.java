package org.ompprof.unwinder.stack;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.ompprof.unwinder.cfi.ModuleCfi;
import org.ompprof.unwinder.code.CodeRows;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.ProgramHeader;

/**
 * One loaded ELF object: its image, its load bias (runtime address = ELF vaddr + bias) and the
 * runtime ranges of its executable segments, which are where its pcs can be. The CFI is read
 * on first use, or shared from another module loaded from the same file.
 */
public final class Module {
    private static final int PF_X = 1;

    private final String name;
    private final ElfFile elf;
    private final long bias;
    private final List<AddressRange> ranges;
    private volatile ModuleCfi cfi;
    private volatile CodeRows code;

    private Module(String name, ElfFile elf, long bias, ModuleCfi cfi) {
        this.name = name;
        this.elf = elf;
        this.bias = bias;
        this.ranges = codeRanges(elf, bias);
        this.cfi = cfi;
    }

    public static Module of(String name, ElfFile elf, long bias) {
        return new Module(name, elf, bias, null);
    }

    /** With CFI shared with other modules of the same file (and so its cache). */
    public static Module of(String name, ElfFile elf, long bias, ModuleCfi cfi) {
        return new Module(name, elf, bias, cfi);
    }

    public static Module open(Path path, long bias) throws IOException {
        return of(path.toString(), ElfFile.read(path), bias);
    }

    /** Executable PT_LOAD segments, or every PT_LOAD if none is marked executable. */
    private static List<AddressRange> codeRanges(ElfFile elf, long bias) {
        List<AddressRange> exec = new ArrayList<>(), all = new ArrayList<>();
        for (ProgramHeader p : elf.programHeaders()) {
            if (p.type() != ElfFile.PT_LOAD || p.memSize() <= 0) continue;
            AddressRange r = new AddressRange(p.vaddr() + bias, p.vaddr() + p.memSize() + bias);
            all.add(r);
            if ((p.flags() & PF_X) != 0) exec.add(r);
        }
        return List.copyOf(exec.isEmpty() ? all : exec);
    }

    public String name() {
        return name;
    }

    public ElfFile elf() {
        return elf;
    }

    public long bias() {
        return bias;
    }

    public List<AddressRange> ranges() {
        return ranges;
    }

    public ModuleCfi cfi() {
        ModuleCfi c = cfi;
        if (c == null) {
            // Benign race: two threads may both read the sections; one result is kept.
            c = ModuleCfi.of(elf);
            cfi = c;
        }
        return c;
    }

    /** Rows read from the machine code, for pcs the CFI does not cover. */
    public CodeRows code() {
        CodeRows c = code;
        if (c == null) code = c = CodeRows.of(elf); // benign race, as for the CFI
        return c;
    }

    @Override
    public String toString() {
        return "Module[" + name + " bias=0x" + Long.toHexString(bias) + "]";
    }
}
