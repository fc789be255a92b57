package org.ompprof.ui.pipeline;

import java.util.List;

import org.eclipse.collections.impl.map.mutable.primitive.LongObjectHashMap;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.FrameTable;
import org.ompprof.unwinder.clock.Stage;
import org.ompprof.unwinder.clock.StageClock;
import org.ompprof.unwinder.stack.Module;
import org.ompprof.unwinder.stitch.PathFrame;
import org.ompprof.unwinder.stitch.Placeholder;
import org.ompprof.unwinder.stitch.Stitcher;
import org.ompprof.unwinder.symbols.SourceFrame;
import org.ompprof.unwinder.symbols.Symbolizer;

/**
 * Turns stitched path elements into interned tree frames: a pc becomes its function (and the
 * functions inlined into it, outermost first); a placeholder becomes its label. Answers are
 * cached per (module, pc), since the same few thousand pcs recur in millions of samples.
 */
final class FrameNames {
    private static final Named NONE = new Named(new int[0], new int[0]);

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

    /** The first naming of each pc goes to {@code clock}'s symbolize stage (cache hits stay with the caller's). */
    FrameNames(Stitcher stitcher, Symbolizer symbolizer, FrameTable frames, StageClock clock) {
        this.stitcher = stitcher;
        this.symbolizer = symbolizer;
        this.frames = frames;
        this.clock = clock;
    }

    StageClock clock() {
        return clock;
    }

    /** Frame ids for one path element, outermost first. */
    int[] frames(PathFrame element) {
        return named(element).ids();
    }

    /** Frame ids and their lines for one path element. */
    Named named(PathFrame element) {
        return switch (element) {
            case Placeholder p -> one(frames.intern(Frame.placeholder(p.label())));
            case PathFrame.Unmapped u -> one(frames.intern(Frame.unresolved(FrameKind.USER, "?", u.pc())));
            case PathFrame.Code c -> code(c);
        };
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
        if (module == null) return one(frames.intern(Frame.unresolved(kind, c.modulePath(), c.lookupPc())));
        List<SourceFrame> innermostFirst = symbolizer.symbolize(module, c.lookupPc());
        if (innermostFirst.isEmpty()) return NONE;
        int n = innermostFirst.size();
        int[] ids = new int[n], lines = new int[n];
        for (int i = n - 1; i >= 0; i--) {
            SourceFrame s = innermostFirst.get(i);
            FrameKind k = s.inlined() && kind == FrameKind.USER ? FrameKind.INLINED : kind;
            ids[n - 1 - i] = frames.intern(frame(k, c, s));
            lines[n - 1 - i] = Math.max(0, s.line());
        }
        return new Named(ids, lines);
    }

    private static Frame frame(FrameKind kind, PathFrame.Code c, SourceFrame s) {
        if (s.function() == null || s.function().isEmpty() || s.function().equals("??")) {
            return Frame.unresolved(kind, c.modulePath(), c.lookupPc());
        }
        // one node per function: lines belong to the source view, not to the tree's shape
        return Frame.of(kind, c.modulePath(), s.function(), s.file(), 0);
    }
}
