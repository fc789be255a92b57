package org.ompprof.unwinder.cfi;

import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.ElfFormatException;

/**
 * All call-frame information of one ELF module, answering "how to unwind at this relative pc"
 * (relative = ELF virtual address, i.e. runtime pc minus load bias). .eh_frame is searched
 * through .eh_frame_hdr when that is usable, else through an index built by one scan;
 * .debug_frame is consulted for pcs .eh_frame does not cover. Answers are cached.
 *
 * <p>Never throws on damaged input: problems become {@link BadCfi} answers. Thread-safe; one
 * instance can serve every address space in which the same file is loaded.
 */
public final class ModuleCfi {
    private static final int CACHE_BITS = 11;

    private final CfiSection ehFrame;
    private final EhFrameHdr header;
    private final CfiSection debugFrame;
    private final String problem;
    private final RowCache cache = new RowCache(CACHE_BITS);
    private volatile FdeIndex ehIndex;
    private volatile FdeIndex debugIndex;

    private ModuleCfi(CfiSection ehFrame, EhFrameHdr header, CfiSection debugFrame, String problem) {
        this.ehFrame = ehFrame;
        this.header = header;
        this.debugFrame = debugFrame;
        this.problem = problem;
    }

    public static ModuleCfi of(ElfFile elf) {
        try {
            return of(CfiSources.of(elf));
        } catch (ElfFormatException e) {
            return new ModuleCfi(null, null, null, "call-frame sections unreadable: " + e.getMessage());
        }
    }

    public static ModuleCfi of(CfiSources sources) {
        PointerBases ehBases = sources.ehFrame()
                .map(s -> new PointerBases(s.vaddr(), sources.textVaddr(), PointerBases.UNKNOWN))
                .orElse(null);
        CfiSection eh = sources.ehFrame()
                .map(s -> new CfiSection(s, CfiOrigin.EH_FRAME, ehBases))
                .orElse(null);
        CfiSection debug = sources.debugFrame()
                .map(s -> new CfiSection(s, CfiOrigin.DEBUG_FRAME, PointerBases.of(s.vaddr())))
                .orElse(null);
        return new ModuleCfi(eh, usableHeader(sources), debug, null);
    }

    /** A header whose table can be bisected, or null (then .eh_frame is scanned instead). */
    private static EhFrameHdr usableHeader(CfiSources sources) {
        if (sources.ehFrameHdr().isEmpty() || sources.ehFrame().isEmpty()) return null;
        try {
            EhFrameHdr h = EhFrameHdr.parse(sources.ehFrameHdr().get());
            return h.count() > 0 ? h : null;
        } catch (CfiFormatException e) {
            return null;
        }
    }

    public boolean hasEhFrame() {
        return ehFrame != null;
    }

    public boolean hasDebugFrame() {
        return debugFrame != null;
    }

    /** Whether lookups bisect .eh_frame_hdr (else they use a scanned index). */
    public boolean usesSearchTable() {
        return header != null;
    }

    /** The rule row at relative pc {@code pc}; never null, never throws. */
    public RowResult rowFor(long pc) {
        RowResult cached = cache.get(pc);
        if (cached != null) return cached;
        RowResult computed = compute(pc);
        cache.put(pc, computed);
        return computed;
    }

    private RowResult compute(long pc) {
        if (problem != null) return new BadCfi(pc, pc + 1, problem);
        String ehProblem = null;
        if (ehFrame != null) {
            try {
                Fde fde = header != null ? viaHeader(pc) : viaIndex(ehFrame, pc, true);
                if (fde != null) return CfaInterpreter.rowAt(ehFrame, fde, pc);
            } catch (CfiFormatException e) {
                ehProblem = e.getMessage();
            }
        }
        if (debugFrame != null) {
            try {
                Fde fde = viaIndex(debugFrame, pc, false);
                if (fde != null) return CfaInterpreter.rowAt(debugFrame, fde, pc);
            } catch (CfiFormatException e) {
                if (ehProblem == null) ehProblem = e.getMessage();
            }
        }
        return ehProblem != null ? new BadCfi(pc, pc + 1, ehProblem) : new NoCfi(pc, pc + 1);
    }

    private Fde viaHeader(long pc) {
        int i = header.search(pc);
        // Look one entry back too: a zero-length FDE can share the start of the real one.
        for (int k = i; k >= 0 && k >= i - 1; k--) {
            long offset = header.fdeAddress(k) - ehFrame.data().vaddr();
            if (offset < 0 || offset >= ehFrame.data().size()) {
                throw new CfiFormatException(".eh_frame_hdr: entry " + k + " points outside .eh_frame", offset);
            }
            Fde fde = ehFrame.fdeAt((int) offset);
            if (fde != null && fde.covers(pc)) return fde;
        }
        return null;
    }

    private Fde viaIndex(CfiSection section, long pc, boolean eh) {
        FdeIndex index = eh ? ehIndex : debugIndex;
        if (index == null) {
            // Racing threads may both scan; the results are equal and either may win.
            index = FdeIndex.scan(section);
            if (eh) ehIndex = index;
            else debugIndex = index;
        }
        int offset = index.find(pc);
        return offset < 0 ? null : section.fdeAt(offset);
    }
}
