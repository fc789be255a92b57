package org.ompprof.unwinder.stitch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.ompprof.sampler.record.ModuleSegment;
import org.ompprof.sampler.recording.ModuleInfo;

/**
 * Which recorded module's code contains a pc, by the segments the agent reported: this works
 * for modules whose image is missing too, so their frames can still read {@code module+0x...}.
 */
final class ModuleByPc {
    private static final int PF_X = 1;

    private final long[] starts;
    private final long[] ends;
    private final ModuleInfo[] owners;

    ModuleByPc(List<ModuleInfo> modules) {
        record Range(long start, long end, ModuleInfo owner) {}
        List<Range> ranges = new ArrayList<>();
        for (ModuleInfo info : modules) {
            for (ModuleSegment s : info.segments()) {
                if ((s.flags() & PF_X) == 0 || s.memSize() <= 0) continue;
                ranges.add(new Range(s.vaddr() + info.loadBias(), s.vaddr() + s.memSize() + info.loadBias(), info));
            }
        }
        ranges.sort(Comparator.comparingLong(Range::start));
        starts = ranges.stream().mapToLong(Range::start).toArray();
        ends = ranges.stream().mapToLong(Range::end).toArray();
        owners = ranges.stream().map(Range::owner).toArray(ModuleInfo[]::new);
    }

    /** The module, or null. Where unloaded and later modules overlap, one of them. */
    ModuleInfo find(long pc) {
        int i = Arrays.binarySearch(starts, pc);
        if (i < 0) i = -i - 2;
        return i >= 0 && pc < ends[i] ? owners[i] : null;
    }
}
