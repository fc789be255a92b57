package org.ompprof.sampler.record;

/**
 * Receives decoded records by type; override what you need, the rest is ignored. For
 * exhaustive handling switch over the sealed {@link WireRecord} instead.
 */
public interface RecordVisitor {
    default void sample(SampleRecord r) {}

    default void threadBegin(ThreadBegin r) {}

    default void threadEnd(ThreadEnd r) {}

    default void parallelBegin(ParallelBegin r) {}

    default void parallelEnd(ParallelEnd r) {}

    default void implicitTask(ImplicitTask r) {}

    default void taskCreate(TaskCreate r) {}

    default void taskSchedule(TaskSchedule r) {}

    default void syncRegion(SyncRegion r) {}

    default void mutex(MutexEvent r) {}

    default void mutexSite(MutexSite r) {}

    default void controlTool(ControlTool r) {}

    default void module(ModuleLoad r) {}

    default void moduleUnload(ModuleUnload r) {}

    default void agentInfo(AgentInfo r) {}

    default void agentEnd(AgentEnd r) {}

    default void work(WorkEvent r) {}

    default void masked(MaskedEvent r) {}

    default void taskBatch(TaskBatch r) {}

    default void regionBatch(RegionBatch r) {}

    default void device(DeviceEvent r) {}

    default void target(TargetEvent r) {}

    default void targetSubmit(TargetSubmit r) {}

    default void targetDataOp(TargetDataOp r) {}

    default void deviceTrace(DeviceTrace r) {}

    default void deviceClock(DeviceClock r) {}

    default void mpi(MpiEvent r) {}

    /** Calls the method for {@code r}'s type. */
    default void visit(WireRecord r) {
        switch (r) {
            case SampleRecord x -> sample(x);
            case ThreadBegin x -> threadBegin(x);
            case ThreadEnd x -> threadEnd(x);
            case ParallelBegin x -> parallelBegin(x);
            case ParallelEnd x -> parallelEnd(x);
            case ImplicitTask x -> implicitTask(x);
            case TaskCreate x -> taskCreate(x);
            case TaskSchedule x -> taskSchedule(x);
            case SyncRegion x -> syncRegion(x);
            case MutexEvent x -> mutex(x);
            case MutexSite x -> mutexSite(x);
            case ControlTool x -> controlTool(x);
            case ModuleLoad x -> module(x);
            case ModuleUnload x -> moduleUnload(x);
            case AgentInfo x -> agentInfo(x);
            case AgentEnd x -> agentEnd(x);
            case WorkEvent x -> work(x);
            case MaskedEvent x -> masked(x);
            case TaskBatch x -> taskBatch(x);
            case RegionBatch x -> regionBatch(x);
            case DeviceEvent x -> device(x);
            case TargetEvent x -> target(x);
            case TargetSubmit x -> targetSubmit(x);
            case TargetDataOp x -> targetDataOp(x);
            case DeviceTrace x -> deviceTrace(x);
            case DeviceClock x -> deviceClock(x);
            case MpiEvent x -> mpi(x);
        }
    }
}
