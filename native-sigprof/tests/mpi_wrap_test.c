/* The MPI companion (libompprof-mpi.so, preloaded) as the agent sees it: this program plays the
 * agent, attaches its own writer and checks the records of a singleton MPI run's calls (kinds,
 * enter before exit, times in order, communicator, per-communicator sequence numbers, peers,
 * bytes, requests), and that calls made before attaching pass through unrecorded. */
#include <dlfcn.h>
#include <mpi.h>
#include <string.h>

#include "check.h"
#include "ompprof_wire.h"

#define MAX 64
static struct ompprof_mpi recs[MAX];
static int n;

static void writer(const struct ompprof_mpi *m)
{
  if (n < MAX)
    recs[n++] = *m;
}

/* The pair of records of the k-th call recorded. */
static void check_call(int k, int call, int peer, uint64_t bytes, uint64_t seq)
{
  const struct ompprof_mpi *e = &recs[2 * k], *x = &recs[2 * k + 1];
  CHECK(e->call == call && x->call == call, "call %d: kinds %d %d, want %d", k, e->call, x->call, call);
  CHECK(e->endpoint == OMPPROF_MPI_ENTER && x->endpoint == OMPPROF_MPI_EXIT, "call %d: endpoints %d %d", k, e->endpoint,
        x->endpoint);
  CHECK(e->time_ns > 0 && e->time_ns <= x->time_ns, "call %d: times %llu %llu", k, (unsigned long long)e->time_ns,
        (unsigned long long)x->time_ns);
  CHECK(e->peer == peer, "call %d: peer %d, want %d", k, e->peer, peer);
  CHECK(e->bytes == bytes, "call %d: bytes %llu, want %llu", k, (unsigned long long)e->bytes,
        (unsigned long long)bytes);
  CHECK(e->seq == seq, "call %d: seq %llu, want %llu", k, (unsigned long long)e->seq, (unsigned long long)seq);
  if (k > 0)
    CHECK(recs[2 * k - 1].time_ns <= e->time_ns, "call %d starts after the previous one ended", k);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv); /* before attaching: passes through */
  CHECK(n == 0, "%d records before attaching", n);
  int (*attach)(unsigned, void (*)(const struct ompprof_mpi *)) =
      (int (*)(unsigned, void (*)(const struct ompprof_mpi *)))dlsym(RTLD_DEFAULT, OMPPROF_MPI_ATTACH_SYMBOL);
  CHECK(attach != NULL, "the companion is not preloaded");
  if (!attach)
    return 1;
  CHECK(attach(OMPPROF_MPI_ABI + 1, writer) == 0, "another ABI is refused");
  CHECK(attach(OMPPROF_MPI_ABI, writer) == 1, "attach refused (not the MPI it was built for?)");

  double in[4] = {1, 2, 3, 4}, out[4];
  MPI_Allreduce(in, out, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Bcast(in, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Request req;
  MPI_Isend(in, 3, MPI_INT, 0, 7, MPI_COMM_WORLD, &req);
  MPI_Status st;
  int got[3];
  MPI_Recv(got, 3, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup); /* not wrapped: no records */
  MPI_Barrier(dup);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();

  CHECK(n == 2 * 9, "%d records, want 18", n);
  if (n != 18)
    return 1;
  check_call(0, OMPPROF_MPI_CALL_ALLREDUCE, -1, 32, 0);
  check_call(1, OMPPROF_MPI_CALL_BARRIER, -1, 0, 1);
  check_call(2, OMPPROF_MPI_CALL_BCAST, 0, 16, 2);
  check_call(3, OMPPROF_MPI_CALL_ISEND, 0, 12, 0);
  check_call(4, OMPPROF_MPI_CALL_RECV, MPI_ANY_SOURCE, 0, 0);
  CHECK(recs[9].peer == 0 && recs[9].bytes == 12, "recv exit: the actual source %d and bytes %llu", recs[9].peer,
        (unsigned long long)recs[9].bytes);
  CHECK(recs[7].request != 0 && recs[6].request == 0, "isend: the request made, on exit");
  check_call(5, OMPPROF_MPI_CALL_WAIT, -1, 0, 0);
  CHECK(recs[10].request == recs[7].request, "wait: the request isend made");
  check_call(6, OMPPROF_MPI_CALL_BARRIER, -1, 0, 0); /* the first collective on dup */
  check_call(7, OMPPROF_MPI_CALL_BARRIER, -1, 0, 3);
  check_call(8, OMPPROF_MPI_CALL_FINALIZE, -1, 0, 0);
  CHECK(recs[0].comm == 1 && recs[0].comm_size == 1, "world: handle %llu (Fortran 0 + 1), size %u",
        (unsigned long long)recs[0].comm, recs[0].comm_size);
  CHECK(recs[12].comm != recs[0].comm && recs[12].comm != 0, "dup has a handle of its own");
  CHECK(recs[16].comm == 0 && recs[10].comm == 0, "finalize and wait have no communicator");
  printf("mpi_wrap_test: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
