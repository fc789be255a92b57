package org.ompprof.sampler.record;

/**
 * One record as the agent wrote it, decoded. Immutable; byte contents (stack snapshots, the
 * vDSO image) are read-only segments. Every payload starts with its CLOCK_MONOTONIC time.
 */
public sealed interface WireRecord
        permits SampleRecord,
                ThreadBegin,
                ThreadEnd,
                ParallelBegin,
                ParallelEnd,
                ImplicitTask,
                TaskCreate,
                TaskSchedule,
                SyncRegion,
                MutexEvent,
                MutexSite,
                ControlTool,
                ModuleLoad,
                ModuleUnload,
                AgentInfo,
                AgentEnd,
                WorkEvent,
                MaskedEvent,
                TaskBatch,
                RegionBatch,
                DeviceEvent,
                TargetEvent,
                TargetSubmit,
                TargetDataOp,
                DeviceTrace,
                DeviceClock,
                MpiEvent {
    /** The writing thread's sequence number (1, 2, ...; the slot owner). */
    int threadSeq();

    /** CLOCK_MONOTONIC nanoseconds. */
    long timeNs();

    /** The wire type ({@code Wire.REC_*}). */
    int type();
}
