package org.ompprof.unwinder.symbols;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.ompprof.sampler.collect.JfrRecording;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.ElfFormatException;
import org.ompprof.unwinder.elf.Symbol;
import org.ompprof.unwinder.image.ImageOrigin;
import org.ompprof.unwinder.image.ImageOrigins;
import org.ompprof.unwinder.stack.Frame;
import org.ompprof.unwinder.stack.Module;

/**
 * Names the code at a module's relative pcs: function, file, line and inlined frames through
 * llvm-symbolizer where the module has debug info, its symbol table otherwise, and
 * {@code libname+0xoffset} where neither knows the pc. Answers are cached per image, shared by
 * every module (and recording) loaded from the same parsed {@link ElfFile}.
 *
 * <p>Never fails because of a module: a missing file, a hung or crashing llvm-symbolizer or an
 * unreadable image fall back to the symbol table and are listed in {@link #problems()}.
 * Thread-safe; closing it stops llvm-symbolizer and deletes its temporary files.
 */
public final class Symbolizer implements AutoCloseable {
    private static final String UNKNOWN_MODULE = "??";

    private final ImageOrigins origins;
    private final LlvmSymbolizer llvm;
    private final ScratchFiles scratch = new ScratchFiles();
    private final DebugFileLookup debugFiles = DebugFileLookup.fromSystem();
    private final Map<ElfFile, ImageSymbols> images = new ConcurrentHashMap<>();
    private final List<String> problems = new CopyOnWriteArrayList<>();
    /** The files llvm-symbolizer was asked to load ahead: each once (a library mapped twice is one file). */
    private final Set<Path> loadedAhead = ConcurrentHashMap.newKeySet();

    private volatile boolean closed;

    private Symbolizer(ImageOrigins origins, LlvmSymbolizer llvm, String llvmProblem) {
        this.origins = origins;
        this.llvm = llvm;
        if (llvmProblem != null) problems.add(llvmProblem);
    }

    /**
     * With llvm-symbolizer if it can be started (else symbol tables only, and
     * {@link #problems()} says why). Module files are found through {@code origins}, then
     * through the module's name taken as a path.
     */
    public static Symbolizer create(ImageOrigins origins) {
        try {
            return new Symbolizer(withNames(origins), LlvmSymbolizer.start(), null);
        } catch (SymbolizerException e) {
            return new Symbolizer(withNames(origins), null, "no source lines: " + e.getMessage());
        }
    }

    public static Symbolizer create() {
        return create(m -> Optional.empty());
    }

    /** With this llvm-symbolizer, which the symbolizer then owns and closes. */
    public static Symbolizer create(ImageOrigins origins, LlvmSymbolizer llvm) {
        return new Symbolizer(withNames(origins), llvm, null);
    }

    public static Symbolizer symbolTablesOnly(ImageOrigins origins) {
        return new Symbolizer(withNames(origins), null, null);
    }

    private static ImageOrigins withNames(ImageOrigins origins) {
        return origins.orElse(ImageOrigins.byModuleName());
    }

    /** The frames at one pc, innermost inlined function first; never empty. */
    public List<SourceFrame> symbolize(Module module, long relativePc) {
        List<SourceFrame> hit = closed ? null : image(module).cached(relativePc);
        // The common case once a profile is warm: skip building a batch of one.
        if (hit != null) return relabel(hit, label(module));
        return symbolizeAll(module, new long[] {relativePc}).get(relativePc);
    }

    /** The frames at an unwound frame's lookup pc (the call instruction for return addresses). */
    public List<SourceFrame> symbolize(Frame frame) {
        if (frame.module() == null)
            return List.of(SourceFrame.function("0x" + Long.toHexString(frame.lookupPc()), UNKNOWN_MODULE));
        return symbolize(frame.module(), frame.relativeLookupPc());
    }

    /** Every pc's frames, in the order of first appearance; one round trip to llvm-symbolizer for all misses. */
    public Map<Long, List<SourceFrame>> symbolizeAll(Module module, long[] relativePcs) {
        if (closed) throw new IllegalStateException("the symbolizer is closed");
        ImageSymbols image = image(module);
        String label = label(module);
        Map<Long, List<SourceFrame>> out = new LinkedHashMap<>();
        List<Long> misses = new ArrayList<>();
        for (long pc : relativePcs) {
            if (out.containsKey(pc)) continue;
            List<SourceFrame> hit = image.cached(pc);
            out.put(pc, hit == null ? null : relabel(hit, label));
            if (hit == null) misses.add(pc);
        }
        if (!misses.isEmpty()) {
            long[] pcs = misses.stream().mapToLong(Long::longValue).toArray();
            List<List<SourceFrame>> found = lookUp(module, image, label, pcs);
            for (int i = 0; i < pcs.length; i++) {
                image.remember(pcs[i], found.get(i));
                out.put(pcs[i], found.get(i));
            }
        }
        return out;
    }

    /**
     * Has llvm-symbolizer load the module's file (symbols and debug info) now, in its own process, and returns without
     * waiting: the first questions about a big library (glibc: 70 ms) are then answered at once. For the modules a
     * profile is all but sure to name, while there is other work to do; the answers are the same either way.
     */
    public void loadAhead(Module module) {
        if (closed || llvm == null) return;
        ImageSymbols image = image(module);
        Path target = llvmTarget(module, image, label(module));
        if (target == null || !loadedAhead.add(target)) return;
        try {
            llvm.askAhead(target, anyCode(module.elf()));
        } catch (SymbolizerException e) {
            // the questions to come restart it, or fall back to the symbol table and say why
        }
    }

    /** An address in the module's code: loading is the same whatever is asked. */
    private static long anyCode(ElfFile elf) {
        return elf.section(".text").map(s -> s.addr()).orElse(0L);
    }

    private List<List<SourceFrame>> lookUp(Module module, ImageSymbols image, String label, long[] pcs) {
        // cache misses only, a few thousand a build; none unless JFR records (the first loads the event class)
        SymbolizerCallEvent event = JfrRecording.active() ? new SymbolizerCallEvent() : null;
        if (event != null) event.begin();
        Path target = llvmTarget(module, image, label);
        if (target != null) {
            try {
                List<List<SourceFrame>> found = fromLlvm(image, label, pcs, llvm.symbolize(target, pcs));
                commit(event, label, pcs.length, "llvm-symbolizer");
                return found;
            } catch (SymbolizerException e) {
                image.giveUpOnLlvm();
                problems.add(module.name() + ": symbol table only: " + e.getMessage());
            }
        }
        List<List<SourceFrame>> out = new ArrayList<>(pcs.length);
        for (long pc : pcs) out.add(List.of(fromTable(image, label, pc)));
        commit(event, label, pcs.length, "symbol table");
        return out;
    }

    private static void commit(SymbolizerCallEvent event, String label, int pcs, String source) {
        if (event == null) return;
        event.end();
        if (!event.shouldCommit()) return;
        event.module = label;
        event.pcs = pcs;
        event.source = source;
        event.commit();
    }

    private List<List<SourceFrame>> fromLlvm(ImageSymbols image, String label, long[] pcs, List<LlvmAnswer> answers)
            throws SymbolizerException {
        List<List<SourceFrame>> out = new ArrayList<>(pcs.length);
        for (int i = 0; i < pcs.length; i++) {
            LlvmAnswer a = answers.get(i);
            if (a.failed()) throw new SymbolizerException("llvm-symbolizer cannot read it: " + a.error());
            out.add(frames(image, label, pcs[i], a.frames()));
        }
        return out;
    }

    /**
     * llvm-symbolizer's frames; where it names no function the symbol table fills in, and it names a PLT stub (which
     * it takes for the symbol before it, {@code _init}).
     */
    private static List<SourceFrame> frames(ImageSymbols image, String label, long pc, List<LlvmFrame> frames) {
        if (frames.stream().noneMatch(f -> f.hasFunction() || f.line() > 0) || inPltStub(image, pc))
            return List.of(fromTable(image, label, pc));
        List<SourceFrame> out = new ArrayList<>(frames.size());
        for (int i = 0; i < frames.size(); i++) {
            LlvmFrame f = frames.get(i);
            boolean outermost = i == frames.size() - 1;
            String function = f.hasFunction()
                    ? named(image, pc, f.function(), outermost)
                    : outermost ? image.table().nameOrOffset(pc, label) : "??";
            out.add(new SourceFrame(function, f.file(), f.line(), f.column(), !outermost, label));
        }
        return withoutRepeats(out);
    }

    /**
     * The frames (innermost first) with a function inlined right into itself made one frame, at the inner line:
     * gfortran's debug info nests a copy of a module procedure in itself ({@code tea_leaf_ppcg_init_sd} at line 41
     * inlined at line 33 of {@code tea_leaf_ppcg_init_sd}), and the path read the procedure twice. The outer frame's
     * kind stays (the physical frame is the outermost).
     */
    static List<SourceFrame> withoutRepeats(List<SourceFrame> frames) {
        List<SourceFrame> out = new ArrayList<>(frames.size());
        for (SourceFrame f : frames) {
            SourceFrame inner = out.isEmpty() ? null : out.getLast();
            if (inner != null
                    && inner.inlined()
                    && inner.function().equals(f.function())
                    && !f.function().equals("??")) {
                out.set(
                        out.size() - 1,
                        new SourceFrame(
                                f.function(), inner.file(), inner.line(), inner.column(), f.inlined(), f.module()));
            } else {
                out.add(f);
            }
        }
        return List.copyOf(out);
    }

    /**
     * llvm-symbolizer's name without its symbol version: a compatibility alias it took from a debug file's .symtab
     * ({@code cfree@GLIBC_2.2.5}) gives way to the symbol table's name at that address ({@code free}).
     */
    private static String named(ImageSymbols image, long pc, String function, boolean outermost) {
        if (outermost && SymbolTable.compatAlias(function)) {
            SymbolHit hit = image.table().lookup(pc);
            if (hit != null && !hit.name().isEmpty()) return hit.name();
        }
        return Symbol.unversioned(function);
    }

    private static boolean inPltStub(ImageSymbols image, long pc) {
        SymbolHit hit = image.table().lookup(pc);
        return hit != null && hit.name().endsWith("@plt");
    }

    private static SourceFrame fromTable(ImageSymbols image, String label, long pc) {
        return SourceFrame.function(image.table().nameOrOffset(pc, label), label);
    }

    /** The file llvm-symbolizer should read for this image, decided once; null for the symbol table only. */
    private Path llvmTarget(Module module, ImageSymbols image, String label) {
        if (llvm == null) return null;
        synchronized (image) {
            if (!image.decided()) image.decide(chooseTarget(module, label));
            return image.llvmTarget();
        }
    }

    private Path chooseTarget(Module module, String label) {
        ElfFile elf = module.elf();
        Optional<ImageOrigin> origin = origins.originOf(module);
        if (origin.isEmpty()) {
            if (DebugInfo.hasDwarf(elf))
                problems.add(module.name() + ": has debug info but no file to read it from; symbol table only");
            return null;
        }
        try {
            return switch (origin.get()) {
                case ImageOrigin.OnDisk d ->
                    DebugInfo.hasDwarf(elf) ? quotable(d.path(), label) : debugFileTarget(elf, d.path(), label);
                case ImageOrigin.InMemory m ->
                    DebugInfo.hasDwarf(elf)
                            ? scratch.write(m.bytes(), label)
                            : debugFiles
                                    .find(elf, mappedPath(module))
                                    .map(p -> quotableOrNull(p, label))
                                    .orElse(null);
            };
        } catch (IOException e) {
            problems.add(module.name() + ": cannot make a file for llvm-symbolizer: " + e.getMessage());
            return null;
        }
    }

    /** A separate debug file has the module's addresses, DWARF and full .symtab: llvm-symbolizer reads it instead. */
    private Path debugFileTarget(ElfFile elf, Path module, String label) throws IOException {
        Optional<Path> debug = debugFiles.find(elf, Optional.of(module));
        return debug.isPresent() ? quotable(debug.get(), label) : null;
    }

    private Path quotableOrNull(Path path, String label) {
        try {
            return quotable(path, label);
        } catch (IOException e) {
            return null;
        }
    }

    /** llvm-symbolizer's input syntax cannot quote a path containing a quote or a line break: link to it. */
    private Path quotable(Path path, String label) throws IOException {
        String s = path.toString();
        boolean plain = s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0;
        return plain ? path : scratch.link(path, label);
    }

    private static List<SourceFrame> relabel(List<SourceFrame> frames, String label) {
        if (frames.getFirst().module().equals(label)) return frames;
        return frames.stream().map(f -> f.withModule(label)).toList();
    }

    private ImageSymbols image(Module module) {
        return images.computeIfAbsent(module.elf(), elf -> new ImageSymbols(elf, () -> supplements(module)));
    }

    /** Symbol tables that name what a stripped image's own lost: MiniDebugInfo, then a separate debug file. */
    private List<ElfFile> supplements(Module module) {
        List<ElfFile> out = new ArrayList<>();
        ElfFile elf = module.elf();
        try {
            MiniDebugInfo.of(elf).ifPresent(out::add);
        } catch (ElfFormatException e) {
            problems.add(module.name() + ": " + e.getMessage());
        }
        Optional<Path> file = origins.originOf(module)
                .flatMap(o -> o instanceof ImageOrigin.OnDisk d ? Optional.of(d.path()) : Optional.empty());
        Optional<Path> debug = debugFiles.find(elf, file.or(() -> mappedPath(module)));
        if (debug.isPresent()) {
            try {
                out.add(ElfFile.read(debug.get()));
            } catch (IOException | ElfFormatException e) {
                problems.add(module.name() + ": debug file " + debug.get() + " unreadable: " + e.getMessage());
            }
        }
        return out;
    }

    /**
     * Where the module was mapped from, as a directory for .gnu_debuglink names to be found in
     * even when its image was captured in memory (the debug file's CRC guards the match).
     */
    private static Optional<Path> mappedPath(Module module) {
        try {
            Path p = Path.of(module.name());
            return p.isAbsolute() ? Optional.of(p) : Optional.empty();
        } catch (java.nio.file.InvalidPathException e) {
            return Optional.empty();
        }
    }

    /** The file name of a module, as frames name it. */
    static String label(Module module) {
        String name = module.name();
        int slash = name.lastIndexOf('/');
        String base = slash >= 0 ? name.substring(slash + 1) : name;
        return base.isEmpty() ? name : base;
    }

    /** The symbol table of a module's image (built once per image). */
    public SymbolTable symbolTable(Module module) {
        return image(module).table();
    }

    /** Why some modules (or all) got symbol-table answers only; empty when all went well. */
    public List<String> problems() {
        return List.copyOf(problems);
    }

    /** The private temp directory, if any image needed one (for tests). */
    Path scratchDirectory() {
        return scratch.directoryOrNull();
    }

    public Optional<LlvmSymbolizer> llvm() {
        return Optional.ofNullable(llvm);
    }

    @Override
    public void close() {
        closed = true;
        if (llvm != null) llvm.close();
        scratch.close();
    }

    @Override
    public String toString() {
        return "Symbolizer[" + images.size() + " images, llvm=" + (llvm == null ? "none" : llvm.executable())
                + ", problems=" + Arrays.toString(problems.toArray()) + "]";
    }
}
