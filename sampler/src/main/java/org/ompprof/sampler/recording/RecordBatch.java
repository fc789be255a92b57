package org.ompprof.sampler.recording;

import java.util.List;
import java.util.function.IntPredicate;
import org.ompprof.sampler.record.WireRecord;

/**
 * One record section as {@link Recording#recordBatches} hands it out: the records of the types
 * asked for, decoded, and how many records of each type the section holds (read by their header,
 * decoded or not).
 *
 * @param byType records per wire type; the last slot counts every type beyond it
 */
public record RecordBatch(List<WireRecord> records, long[] byType) {
    /** How many of the section's records have a type {@code types} accepts, decoded or not. */
    public long count(IntPredicate types) {
        long n = 0;
        for (int t = 0; t < byType.length; t++) if (byType[t] != 0 && types.test(t)) n += byType[t];
        return n;
    }
}
