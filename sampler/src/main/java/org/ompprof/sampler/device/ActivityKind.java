package org.ompprof.sampler.device;

/** What a device did, as the timeline and the metrics tell activities apart. */
public enum ActivityKind {
    /** A target construct on the encountering thread: the span every kernel and transfer of it lies in. */
    REGION,
    /** A kernel submission. */
    KERNEL,
    /** Data copied to or from the device (or between devices). */
    TRANSFER,
    /** Device memory allocated, freed, associated or disassociated. */
    MEMORY;

    /** The kind of an OMPT data operation ({@code ompt_target_data_op_t}, async variants included). */
    public static ActivityKind ofDataOp(int optype) {
        return switch (optype) {
            case 2, 3, 18, 19 -> TRANSFER; // to device, from device, and their async forms
            default -> MEMORY;
        };
    }
}
