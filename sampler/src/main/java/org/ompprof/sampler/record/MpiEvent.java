package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/**
 * An MPI call's enter or exit ({@code endpoint}: {@code Wire.MPI_ENTER}, {@code MPI_EXIT}), as the
 * companion library libompprof-mpi.so saw it on the calling thread (fields: {@code struct ompprof_mpi}).
 *
 * @param call the call kind, {@code Wire.MPI_CALL_*}
 * @param comm the communicator's Fortran handle + 1; 0 for none
 * @param seq collectives: how many collectives this rank started on {@code comm} before this one
 * @param peer destination, source or root, a rank in {@code comm}; -1 for none
 */
public record MpiEvent(
        int threadSeq,
        long timeNs,
        long comm,
        long bytes,
        long seq,
        long request,
        int peer,
        int source,
        int tag,
        int commSize,
        int count,
        int call,
        int endpoint,
        int flags)
        implements WireRecord {
    @Override
    public int type() {
        return Wire.REC_MPI;
    }

    public boolean isEnter() {
        return endpoint == Wire.MPI_ENTER;
    }

    /**
     * Not a call: this rank's clock measured against rank 0's ({@code timeNs} here when rank 0's clock read
     * {@code bytes}, over a round trip of {@code seq} ns).
     */
    public boolean isClock() {
        return endpoint == Wire.MPI_CLOCK;
    }
}
