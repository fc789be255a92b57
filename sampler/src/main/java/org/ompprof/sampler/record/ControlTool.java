package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/** The program called omp_control_tool. */
public record ControlTool(int threadSeq, long timeNs, long modifier, long codeptrRa, int command)
        implements WireRecord {
    @Override
    public int type() {
        return Wire.REC_CONTROL_TOOL;
    }
}
