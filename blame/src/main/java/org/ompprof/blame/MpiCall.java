package org.ompprof.blame;

import org.ompprof.sampler.wire.Wire;

/**
 * One MPI call of one rank, as the companion's enter and exit records measured it, its times on
 * the job's clock (rank 0's).
 *
 * @param thread the calling thread's number in the job profile
 * @param call the call kind, {@code Wire.MPI_CALL_*}
 * @param comm the communicator's handle + 1 on this rank; 0 for none
 * @param seq collectives: the rank's collectives on {@code comm} before this one
 * @param peer destination, source (the actual one) or root; -1 for none
 * @param request Isend, Irecv: the request made; Wait: the request waited for; else 0
 */
public record MpiCall(
        int rank,
        int thread,
        int call,
        long comm,
        int commSize,
        long seq,
        int peer,
        int tag,
        long enterNs,
        long exitNs,
        long request) {

    public MpiCall withThread(int newThread) {
        return new MpiCall(rank, newThread, call, comm, commSize, seq, peer, tag, enterNs, exitNs, request);
    }

    /** The same call on another clock. */
    public MpiCall withTimes(long enter, long exit) {
        return new MpiCall(rank, thread, call, comm, commSize, seq, peer, tag, enter, exit, request);
    }

    /** Every member of the communicator takes part, and none leaves before the last has come. */
    public boolean isCollective() {
        return switch (call) {
            case Wire.MPI_CALL_ALLREDUCE,
                    Wire.MPI_CALL_BARRIER,
                    Wire.MPI_CALL_ALLGATHER,
                    Wire.MPI_CALL_ALLGATHERV,
                    Wire.MPI_CALL_ALLTOALL,
                    Wire.MPI_CALL_ALLTOALLV,
                    Wire.MPI_CALL_FINALIZE -> true;
            default -> false;
        };
    }

    /** Rooted collectives: only the root waits for the others (reduce, gather) or they for it (bcast, scatter). */
    public boolean isRooted() {
        return switch (call) {
            case Wire.MPI_CALL_REDUCE, Wire.MPI_CALL_GATHER, Wire.MPI_CALL_BCAST, Wire.MPI_CALL_SCATTER -> true;
            default -> false;
        };
    }
}
