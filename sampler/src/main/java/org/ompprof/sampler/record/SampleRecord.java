package org.ompprof.sampler.record;

import java.util.List;
import org.ompprof.sampler.wire.Wire;

/**
 * One SIGPROF sample.
 *
 * @param weightNs the time this sample stands for (period x (1 + timer overruns))
 * @param ompThreadNum -1 if unknown
 * @param state the ompt_state_t, or 0x102 (undefined) when OMPT was not ready
 * @param flags {@code Wire.SAMPLE_*}
 * @param context where the handler's frame walk stopped (see {@link Walk}), with the snapshot from there
 */
public record SampleRecord(
        int threadSeq,
        long timeNs,
        long weightNs,
        int osTid,
        int ompThreadNum,
        int state,
        int flags,
        long waitId,
        List<TaskLevel> taskLevels,
        List<ParallelLevel> parallelLevels,
        Context context)
        implements WireRecord {
    public SampleRecord {
        taskLevels = List.copyOf(taskLevels);
        parallelLevels = List.copyOf(parallelLevels);
    }

    /** This sample again at another time, standing for {@code weightNs} (a repeated sample's). */
    public SampleRecord at(long timeNs, long weightNs) {
        return new SampleRecord(
                threadSeq,
                timeNs,
                weightNs,
                osTid,
                ompThreadNum,
                state,
                flags,
                waitId,
                taskLevels,
                parallelLevels,
                context);
    }

    /** The frames the handler walked (the context's). */
    public Walk walk() {
        return context.walk();
    }

    @Override
    public int type() {
        return Wire.REC_SAMPLE;
    }
}
