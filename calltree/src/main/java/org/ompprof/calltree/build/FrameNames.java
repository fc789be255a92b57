package org.ompprof.calltree.build;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.IntFunction;
import org.eclipse.collections.impl.list.mutable.primitive.IntArrayList;
import org.eclipse.collections.impl.map.mutable.primitive.IntObjectHashMap;
import org.eclipse.collections.impl.map.mutable.primitive.LongObjectHashMap;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.FrameTable;
import org.ompprof.unwinder.clock.Stage;
import org.ompprof.unwinder.clock.StageClock;
import org.ompprof.unwinder.elf.DirectCall;
import org.ompprof.unwinder.stack.Module;
import org.ompprof.unwinder.stitch.PathFrame;
import org.ompprof.unwinder.stitch.Placeholder;
import org.ompprof.unwinder.stitch.Stitcher;
import org.ompprof.unwinder.symbols.SourceFrame;
import org.ompprof.unwinder.symbols.SymbolHit;
import org.ompprof.unwinder.symbols.Symbolizer;

/**
 * Turns stitched path elements into interned tree frames: a pc becomes its function (and the
 * functions inlined into it, outermost first); a placeholder becomes its label. Answers are
 * cached per (module, pc), since the same few thousand pcs recur in millions of samples.
 *
 * <p>This is the one place where frames get the names people read (reports, exports and the
 * viewer all show {@link Frame#name()}); the compiler's name stays in {@link Frame#symbol()}.
 * A body the compiler outlined for an OpenMP construct is named by the construct and its line
 * ({@code parallel at heat.c:27}, {@code task at ...}, {@code target at ...}), clang's wrapper and
 * its debug body being one frame; Fortran's linker names become {@code module::procedure} and
 * the main program {@code program} (or its name); C++ names from symbol tables are demangled at
 * {@link #finish()}, all at once. A sample taken in the profiler's own agent is not user code:
 * its path is the single frame {@link #OVERHEAD}, so the profiler's cost shows apart from the program's.
 */
final class FrameNames {
    private static final Named NONE = new Named(new int[0], new int[0]);
    /** Where samples taken inside the profiler's agent (libompprof.so) go: the profiler's overhead. */
    static final Frame OVERHEAD = Frame.placeholder("<ompprof>");

    /** What path assembly must know of a frame: the outlined kind and origin, or that it is the agent's. */
    record Role(DisplayNames.Outlined outlined, String from, boolean agent, boolean target, boolean construct) {
        Role(DisplayNames.Outlined outlined, String from, boolean agent) {
            this(outlined, from, agent, outlined == DisplayNames.Outlined.TARGET, false);
        }
    }

    static final Role AGENT = new Role(null, null, true);
    /** A {@link PathFrame.Construct}: the region's node until an outlined body or a placeholder takes its place. */
    static final Role CONSTRUCT = new Role(null, null, false, false, true);

    /**
     * Frame ids, outermost first, and the source line each is at: for a function into which the
     * next one was inlined, the line of that inlined call; for the innermost, the pc's line; 0 unknown.
     */
    record Named(int[] ids, int[] lines) {}

    private final Stitcher stitcher;
    private final Symbolizer symbolizer;
    private final FrameTable frames;
    private final StageClock clock;
    private final LongObjectHashMap<LongObjectHashMap<Named>> byModule = new LongObjectHashMap<>();
    private final LongObjectHashMap<LongObjectHashMap<Named>> constructsByModule = new LongObjectHashMap<>();
    private final IntObjectHashMap<Role> roles = new IntObjectHashMap<>();
    /** Made once: a method reference bound to {@code roles} is a new object each time it is made. */
    private final IntFunction<Role> roleOf = roles::get;

    private final LongObjectHashMap<String> programNames = new LongObjectHashMap<>();
    /**
     * By function name, and by what names a construct: a body's name recurs at each of its sampled pcs, and the
     * naming rules are regular expressions over long C++ names (a sixth of a small build's CPU before these).
     */
    private final Map<String, Optional<Role>> rolesByName = new HashMap<>();

    private final Map<ConstructKey, String> constructs = new HashMap<>();

    private record ConstructKey(DisplayNames.Outlined kind, String symbol, String file, int line) {}

    private final Named[] placeholders = new Named[Placeholder.values().length];
    private final Demangler demangler;

    /** The first naming of each pc goes to {@code clock}'s symbolize stage (cache hits stay with the caller's). */
    FrameNames(Stitcher stitcher, Symbolizer symbolizer, FrameTable frames, StageClock clock) {
        this.stitcher = stitcher;
        this.symbolizer = symbolizer;
        this.frames = frames;
        this.clock = clock;
        this.demangler = Demangler.create();
    }

    StageClock clock() {
        return clock;
    }

    /** Frame ids for one path element, outermost first. */
    int[] frames(PathFrame element) {
        return named(element).ids();
    }

    /** The frame ids of a whole path, root first, as {@link #append} assembles them. */
    int[] path(List<? extends PathFrame> rootFirst) {
        IntArrayList path = new IntArrayList(), lines = new IntArrayList();
        append(rootFirst, path, lines);
        return path.toArray();
    }

    /**
     * Appends a path's frames, root first, and the line each is at to {@code path} and
     * {@code lines}: clang's debug body of an outlined region right under its wrapper (or a task
     * body under its task entry) is one frame with it, at the inner one's line; a path through the
     * profiler's agent is {@link #OVERHEAD} alone.
     */
    void append(List<? extends PathFrame> rootFirst, IntArrayList path, IntArrayList lines) {
        int start = path.size();
        for (int e = 0; e < rootFirst.size(); e++) { // by index: no iterator a path, garbage for the build's GC
            PathFrame element = rootFirst.get(e);
            if (element instanceof Placeholder) giveWay(roleOf, start, path, lines);
            Named named = named(element);
            if (!append(named.ids(), named.lines(), roleOf, start, path, lines)) {
                while (path.size() > start) path.removeAtIndex(path.size() - 1);
                while (lines.size() > start) lines.removeAtIndex(lines.size() - 1);
                path.add(frames.intern(OVERHEAD));
                lines.add(0);
                return;
            }
        }
        giveWay(roleOf, start, path, lines);
    }

    /**
     * Takes a {@link PathFrame.Construct} off the end of the path: the region's outlined body names it (the frame about
     * to come), or the path leaves the region's code (a placeholder: the end barrier, the runtime) or ends there.
     * Where the implicit task's frames, a tail call away from the outlined body, start with another function, the
     * construct stays: the region's node all the same.
     */
    private static void giveWay(IntFunction<Role> roles, int start, IntArrayList path, IntArrayList lines) {
        if (path.size() <= start) return;
        Role last = roles.apply(path.getLast());
        if (last == null || !last.construct()) return;
        path.removeAtIndex(path.size() - 1);
        lines.removeAtIndex(lines.size() - 1);
    }

    /**
     * Appends one element's frames (ids, with their lines) to a path begun at {@code start}: a
     * frame {@link #absorbed} by the one before it gives that one its line instead. False, as soon
     * as a frame is the agent's (the caller then makes the path {@link #OVERHEAD}).
     */
    static boolean append(
            int[] ids, int[] idLines, IntFunction<Role> roles, int start, IntArrayList path, IntArrayList lines) {
        for (int i = 0; i < ids.length; i++) {
            Role role = roles.apply(ids[i]);
            if (role != null) {
                if (role.agent()) return false;
                if (role.outlined() != null) giveWay(roles, start, path, lines);
                if (path.size() > start && absorbed(roles.apply(path.getLast()), role)) {
                    lines.set(lines.size() - 1, idLines[i]);
                    continue;
                }
            }
            path.add(ids[i]);
            lines.add(idLines[i]);
        }
        return true;
    }

    /**
     * Whether an outlined frame right under {@code outer} is the same construct: the debug body under its wrapper, a
     * body under its task entry.
     */
    private static boolean absorbed(Role outer, Role inner) {
        if (outer == null || outer.outlined() == null || inner.outlined() == null) return false;
        // a target entry, its debug twin and the body outlined from it are the one target region
        if (outer.outlined() == DisplayNames.Outlined.TARGET && inner.target()) return true;
        boolean clangBody = inner.outlined() == DisplayNames.Outlined.PARALLEL_BODY
                || inner.outlined() == DisplayNames.Outlined.PARALLEL_WRAPPER;
        if (outer.outlined() == DisplayNames.Outlined.TASK) return clangBody;
        return outer.outlined() == DisplayNames.Outlined.PARALLEL_WRAPPER
                && inner.outlined() == DisplayNames.Outlined.PARALLEL_BODY
                && outer.from() != null
                && outer.from().equals(inner.from());
    }

    /**
     * Demangles the C++ names of every frame interned so far, in one batch (llvm-cxxfilt, one
     * process); a frame keeps its id and its mangled name as its symbol. Call once, when all
     * samples are in.
     */
    void finish() {
        List<String> mangled = new ArrayList<>();
        for (int id = 0; id < frames.size(); id++) {
            Frame f = frames.frame(id);
            if (f.symbol() == null && DisplayNames.itanium(f.function())) mangled.add(f.function());
            String from = constructFrom(f);
            if (from != null) mangled.add(from);
        }
        if (mangled.isEmpty()) return;
        Map<String, String> demangled = demangler.demangle(mangled);
        for (int id = 0; id < frames.size(); id++) {
            Frame f = frames.frame(id);
            String d = f.symbol() == null ? demangled.get(f.function()) : null;
            if (d != null) frames.replace(id, f.named(d));
            String from = constructFrom(f);
            String name = from == null ? null : demangled.get(from);
            if (name != null)
                frames.replace(id, f.named(f.function().replace(" in " + from, " in " + DisplayNames.bareName(name))));
        }
    }

    /**
     * The mangled C++ function a construct frame names when no debug info gave its file ({@code parallel in
     * _ZL15EvalEOSForElemsR6DomainPdiPii}); null for any other frame.
     */
    private static String constructFrom(Frame f) {
        String from = f.symbol() == null ? null : DisplayNames.outlinedFrom(f.symbol());
        return from != null && DisplayNames.itanium(from) && f.function().contains(" in " + from) ? from : null;
    }

    /** Why C++ names stayed mangled, or null. */
    String demangleProblem() {
        return demangler.problem();
    }

    /** Frame ids and their lines for one path element. */
    Named named(PathFrame element) {
        return switch (element) {
            case Placeholder p -> placeholder(p);
            case PathFrame.Unmapped u -> one(frames.intern(Frame.unresolved(FrameKind.USER, "?", u.pc())));
            case PathFrame.Code c -> code(c);
            case PathFrame.Construct k -> construct(k);
        };
    }

    /**
     * A construct by its call site's line ({@code parallel at bt.c:205}, as its outlined body is named: clang and gcc
     * give the call the pragma's line), cached per site; with its line as the frame's. Where the site's call is not
     * the runtime's fork, the function it called opened the region with a tail call, its own frame gone: {@code
     * parallel in} that function (its source line is not known).
     */
    private Named construct(PathFrame.Construct k) {
        PathFrame.Code site = k.site();
        LongObjectHashMap<Named> cache = constructsByModule.getIfAbsentPut(site.moduleId(), LongObjectHashMap::new);
        Named named = cache.get(site.lookupPc());
        if (named != null) return named;
        Module module = stitcher.module(site.moduleId()).orElse(null);
        List<SourceFrame> at = module == null ? List.of() : symbolizer.symbolize(module, site.lookupPc());
        SourceFrame s = at.isEmpty() ? null : at.getFirst();
        String opener = module == null ? null : tailCallingOpener(module, site.relativePc());
        String name = opener != null
                ? DisplayNames.parallelAt(null, 0, opener)
                : DisplayNames.parallelAt(
                        s == null ? null : s.file(), s == null ? 0 : s.line(), s == null ? null : s.function());
        String file = opener == null && s != null ? s.file() : null;
        int line = opener == null && s != null ? Math.max(0, s.line()) : 0;
        named = new Named(
                new int[] {intern(Frame.of(FrameKind.USER, site.modulePath(), name, file, 0), CONSTRUCT)},
                new int[] {line});
        cache.put(site.lookupPc(), named);
        return named;
    }

    /**
     * The function a region's call site called, where that is not one of the runtime's entries that open regions:
     * it opened the region itself in a tail call ({@code jmp __kmpc_fork_call}), which the site's line does not show;
     * without parameters ({@link DisplayNames#parallelAt} names a Fortran one). Null for a call to the runtime, or one
     * this cannot read.
     */
    private String tailCallingOpener(Module module, long returnAddress) {
        OptionalLong target = DirectCall.target(module.elf(), returnAddress);
        if (target.isEmpty()) return null;
        SymbolHit hit = symbolizer.symbolTable(module).lookup(target.getAsLong());
        if (hit == null || hit.start() != target.getAsLong() || opensRegions(hit.name())) return null;
        List<SourceFrame> named = symbolizer.symbolize(module, target.getAsLong());
        return DisplayNames.bareName(
                named.isEmpty() ? hit.name() : named.getLast().function());
    }

    /** The runtime's entries a region's call site calls: clang's, gcc's (through a PLT stub or not). */
    private static boolean opensRegions(String symbol) {
        String name = symbol.endsWith("@plt") ? symbol.substring(0, symbol.length() - 4) : symbol;
        return name.startsWith("__kmpc_fork")
                || name.startsWith("__kmpc_serialized_parallel")
                || name.startsWith("GOMP_parallel")
                || name.startsWith("GOMP_teams");
    }

    /** Interned once: most samples of a waiting program end in one (a frame's hash and equality are not cheap). */
    private Named placeholder(Placeholder p) {
        Named named = placeholders[p.ordinal()];
        if (named == null) placeholders[p.ordinal()] = named = one(frames.intern(Frame.placeholder(p.label())));
        return named;
    }

    private static Named one(int id) {
        return new Named(new int[] {id}, new int[1]);
    }

    private Named code(PathFrame.Code c) {
        LongObjectHashMap<Named> cache = byModule.getIfAbsentPut(c.moduleId(), LongObjectHashMap::new);
        Named named = cache.get(c.lookupPc());
        if (named == null) {
            Stage was = clock.enter(Stage.SYMBOLIZE);
            try {
                named = symbolize(c);
            } finally {
                clock.count(Stage.SYMBOLIZE, 1);
                clock.enter(was);
            }
            cache.put(c.lookupPc(), named);
        }
        return named;
    }

    private Named symbolize(PathFrame.Code c) {
        FrameKind kind = stitcher.isRuntime(c.moduleId()) ? FrameKind.RUNTIME : FrameKind.USER;
        Module module = stitcher.module(c.moduleId()).orElse(null);
        boolean agent = isAgent(c.modulePath());
        if (module == null)
            return one(intern(Frame.unresolved(kind, c.modulePath(), c.lookupPc()), agent ? AGENT : null));
        List<SourceFrame> innermostFirst = symbolizer.symbolize(module, c.lookupPc());
        if (innermostFirst.isEmpty()) return NONE;
        int n = innermostFirst.size();
        int[] ids = new int[n], lines = new int[n];
        for (int i = n - 1; i >= 0; i--) {
            SourceFrame s = innermostFirst.get(i);
            FrameKind k = s.inlined() && kind == FrameKind.USER ? FrameKind.INLINED : kind;
            Frame raw = frame(k, c, s);
            Role role = agent ? AGENT : knownRole(raw);
            Frame shown = role != null && role.outlined() != null
                    ? raw.named(construct(role.outlined(), module, c, s))
                    : fortran(raw, module, c);
            ids[n - 1 - i] = intern(shown, role);
            lines[n - 1 - i] = Math.max(0, s.line());
        }
        return new Named(ids, lines);
    }

    private int intern(Frame frame, Role role) {
        int id = frames.intern(frame);
        if (role != null) roles.put(id, role);
        return id;
    }

    /**
     * The agent's own library (and its loader auditor): {@code libompprof.so}, {@code libompprof-audit.so}. Not the MPI
     * companion {@code libompprof-mpi.so}: its {@code MPI_Allreduce} & co. stand for the calls the program made.
     */
    static boolean isAgent(String modulePath) {
        if (modulePath == null) return false;
        String base = modulePath.substring(modulePath.lastIndexOf('/') + 1);
        return base.startsWith("libompprof.so")
                || base.startsWith("libompprof-") && !base.startsWith("libompprof-mpi.");
    }

    private Role knownRole(Frame raw) {
        return rolesByName
                .computeIfAbsent(raw.function(), name -> Optional.ofNullable(role(raw)))
                .orElse(null);
    }

    static Role role(Frame raw) {
        DisplayNames.Outlined o = DisplayNames.outlined(raw.function());
        if (o == null) return null;
        boolean target = o == DisplayNames.Outlined.TARGET || DisplayNames.inTarget(raw.function());
        return new Role(o, DisplayNames.outlinedFrom(raw.function()), false, target, false);
    }

    private Frame fortran(Frame raw, Module module, PathFrame.Code c) {
        String program = "MAIN__".equals(raw.function()) ? programName(module, c) : null;
        String f = DisplayNames.fortran(raw.function(), program);
        if (f == null) f = DisplayNames.fortranExternal(raw.function(), raw.file());
        return f == null ? raw : raw.named(f);
    }

    /**
     * gfortran's main program ({@code MAIN__}) by the name its source gives it: the debug info's
     * subprogram name (DW_AT_name, where the symbol is the linkage name), asked of llvm-symbolizer
     * once per module with {@code --functions=short}; null (shown as {@code program}) without it.
     */
    private String programName(Module module, PathFrame.Code c) {
        if (programNames.containsKey(c.moduleId())) return programNames.get(c.moduleId());
        String name = null;
        SymbolHit hit = symbolizer.symbolTable(module).lookup(c.lookupPc());
        var llvm = symbolizer.llvm();
        java.nio.file.Path file = java.nio.file.Path.of(c.modulePath());
        if (hit != null && llvm.isPresent() && java.nio.file.Files.isRegularFile(file)) {
            name = ProgramName.ask(llvm.get().executable(), file, hit.start());
        }
        programNames.put(c.moduleId(), name);
        return name;
    }

    /**
     * {@code parallel at heat.c:27}: the construct's line is that of the outlined function's first
     * instruction (clang and gcc put the pragma's line there); a target region's is in its name.
     */
    private String construct(DisplayNames.Outlined kind, Module module, PathFrame.Code c, SourceFrame s) {
        String symbol = s.function();
        String file = s.file();
        int line = kind == DisplayNames.Outlined.TARGET ? DisplayNames.offloadLine(symbol) : 0;
        if (line == 0 && !s.inlined()) {
            SymbolHit hit = symbolizer.symbolTable(module).lookup(c.lookupPc());
            // the debug info's name of the function at the symbol's start (demangled, as symbol is) says it is the same
            // function
            if (hit != null) {
                List<SourceFrame> entry = symbolizer.symbolize(module, hit.start());
                SourceFrame outer = entry.getLast();
                if (outer.function().equals(symbol) && outer.hasLine()) {
                    line = outer.line();
                    file = outer.file();
                }
            }
        }
        return constructs.computeIfAbsent(
                new ConstructKey(kind, symbol, file, line),
                k -> DisplayNames.construct(k.kind(), k.symbol(), k.file(), k.line()));
    }

    private static Frame frame(FrameKind kind, PathFrame.Code c, SourceFrame s) {
        if (s.function() == null || s.function().isEmpty() || s.function().equals("??")) {
            return Frame.unresolved(kind, c.modulePath(), c.lookupPc());
        }
        // one node per function: lines belong to the source view, not to the tree's shape
        return Frame.of(kind, c.modulePath(), s.function(), s.file(), 0);
    }
}
