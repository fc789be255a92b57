package org.ompprof.ui.pipeline;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.collections.impl.map.mutable.primitive.LongObjectHashMap;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.FrameTable;
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
    private static final int[] NONE = new int[0];

    private final Stitcher stitcher;
    private final Symbolizer symbolizer;
    private final FrameTable frames;
    private final LongObjectHashMap<LongObjectHashMap<int[]>> byModule = new LongObjectHashMap<>();

    FrameNames(Stitcher stitcher, Symbolizer symbolizer, FrameTable frames) {
        this.stitcher = stitcher;
        this.symbolizer = symbolizer;
        this.frames = frames;
    }

    /** Frame ids for one path element, outermost first. */
    int[] frames(PathFrame element) {
        return switch (element) {
            case Placeholder p -> new int[] {frames.intern(Frame.placeholder(p.label()))};
            case PathFrame.Unmapped u -> new int[] {frames.intern(Frame.unresolved(FrameKind.USER, "?", u.pc()))};
            case PathFrame.Code c -> code(c);
        };
    }

    private int[] code(PathFrame.Code c) {
        LongObjectHashMap<int[]> cache = byModule.getIfAbsentPut(c.moduleId(), LongObjectHashMap::new);
        int[] ids = cache.get(c.lookupPc());
        if (ids == null) {
            ids = symbolize(c);
            cache.put(c.lookupPc(), ids);
        }
        return ids;
    }

    private int[] symbolize(PathFrame.Code c) {
        FrameKind kind = stitcher.isRuntime(c.moduleId()) ? FrameKind.RUNTIME : FrameKind.USER;
        Module module = stitcher.module(c.moduleId()).orElse(null);
        if (module == null) return new int[] {frames.intern(Frame.unresolved(kind, c.modulePath(), c.lookupPc()))};
        List<SourceFrame> innermostFirst = symbolizer.symbolize(module, c.lookupPc());
        if (innermostFirst.isEmpty()) return NONE;
        List<Integer> ids = new ArrayList<>();
        for (int i = innermostFirst.size() - 1; i >= 0; i--) {
            SourceFrame s = innermostFirst.get(i);
            FrameKind k = s.inlined() && kind == FrameKind.USER ? FrameKind.INLINED : kind;
            ids.add(frames.intern(frame(k, c, s)));
        }
        return ids.stream().mapToInt(Integer::intValue).toArray();
    }

    private static Frame frame(FrameKind kind, PathFrame.Code c, SourceFrame s) {
        if (s.function() == null || s.function().isEmpty() || s.function().equals("??")) {
            return Frame.unresolved(kind, c.modulePath(), c.lookupPc());
        }
        // one node per function: lines belong to the source view, not to the tree's shape
        return Frame.of(kind, c.modulePath(), s.function(), s.file(), 0);
    }
}
