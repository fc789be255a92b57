/**
 * MPI calls as the companion library libompprof-mpi.so records them: when each thread was inside
 * which MPI call ({@link org.ompprof.sampler.mpi.MpiIntervals}), so that a sample taken there is
 * counted in the call's state ({@code time.mpi.<call>}) instead of as work.
 */
package org.ompprof.sampler.mpi;
