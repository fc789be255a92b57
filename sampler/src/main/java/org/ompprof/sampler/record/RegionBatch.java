package org.ompprof.sampler.record;

import java.util.List;
import org.ompprof.sampler.wire.Wire;

/**
 * Parallel regions a thread opened in a context whose shape it had sent before with a stack
 * ({@link ParallelBegin}), and ended, batched by the agent: each entry says what that region's
 * ParallelBegin (of the same shape, so without a stack) and its ParallelEnd would. Its creation
 * segment and call site are those of the ParallelBegin with the same shape; its begin time is not
 * kept. {@code timeNs} is when the batch was written.
 */
public record RegionBatch(int threadSeq, long timeNs, List<Entry> entries) implements WireRecord {
    public RegionBatch {
        entries = List.copyOf(entries);
    }

    /** One region: its id, the task that opened it, the shape of its creation, when it ended. */
    public record Entry(long parallelId, long parentTaskId, long shape, long endNs) {}

    @Override
    public int type() {
        return Wire.REC_REGION_BATCH_PACKED;
    }
}
