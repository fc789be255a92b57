/* The MPI companion library's connection to the agent (mpi.c, mpi_wrap.c). */
#ifndef OMPPROF_MPI_H
#define OMPPROF_MPI_H

void mpi_connect(int debug); /* hands the MPI companion library, if loaded, its record writer */

#endif
