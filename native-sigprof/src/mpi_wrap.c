/*
 * libompprof-mpi.so: the MPI companion library. Preloaded by the launcher into programs that
 * link an MPI library, it interposes on the MPI profiling interface: each MPI_X below calls
 * PMPI_X between an enter and an exit record (call kind, communicator, peer or root, bytes, a
 * per-communicator sequence number for collectives, CLOCK_MONOTONIC times as the samples'),
 * which the agent writes into the calling thread's event ring. The agent hands over its writer
 * at OMPT initialize (ompprof_mpi_attach, include/ompprof_wire.h); before that, without the
 * agent, or with an MPI library other than the one this was built against, calls only pass
 * through. The PMPI_X references are weak, so that the library also loads into a program
 * without MPI; a PMPI_X still unresolved at a call (an MPI library dlopen'ed later) is looked
 * up then.
 */
#include <dlfcn.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "launch_env.h"
#include "ompprof_wire.h"

#define EXPORT __attribute__((visibility("default")))

#if defined(OPEN_MPI)
#define BUILT_FOR "Open MPI"
#elif defined(MPICH)
#define BUILT_FOR "MPICH"
#else
#error "libompprof-mpi.so is built for Open MPI or MPICH"
#endif

typedef void (*mpi_writer_t)(const struct ompprof_mpi *);

static mpi_writer_t writer;
/* A call made while another is in progress on this thread (an MPI library calling its own
 * MPI_ entry points) is part of the outer one: no records. */
static _Thread_local int depth __attribute__((tls_model("initial-exec")));
/* Collectives per communicator, by Fortran handle: every member starts the collectives of a
 * communicator in the same order, so (communicator, seq) names one collective across ranks.
 * Handles 65,536 apart share a counter. */
#define SEQ_SLOTS 65536u
static uint64_t seqs[SEQ_SLOTS];

/* Whether the MPI library in the process is the kind this was compiled against (the handles'
 * and MPI_Status' layouts differ between them). MPI_Get_library_version may be called
 * before MPI_Init. */
static int same_mpi(void)
{
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  int (*get)(char *, int *) = (int (*)(char *, int *))dlsym(RTLD_DEFAULT, "PMPI_Get_library_version");
  if (!get || get(version, &len) != MPI_SUCCESS)
    return 0;
  return strncmp(version, BUILT_FOR, strlen(BUILT_FOR)) == 0 || strstr(version, BUILT_FOR) != NULL;
}

EXPORT int ompprof_mpi_attach(unsigned abi, mpi_writer_t w)
{
  if (abi != OMPPROF_MPI_ABI || !same_mpi())
    return 0;
  __atomic_store_n(&writer, w, __ATOMIC_RELEASE);
  return 1;
}

/* The launcher puts us into LD_PRELOAD; the program and its children see what they were given. */
__attribute__((constructor)) static void leave_environment(void)
{
  if (!launch_is_launcher())
    launch_leave_preload("libompprof-mpi.so");
}

static uint64_t now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Weak references: NULL in a program without MPI, where nothing calls these wrappers either. */
#define REAL(fn) (fn ? fn : (__typeof__(&fn))dlsym(RTLD_DEFAULT, #fn))
#pragma weak PMPI_Init
#pragma weak PMPI_Init_thread
#pragma weak PMPI_Finalize
#pragma weak PMPI_Allreduce
#pragma weak PMPI_Reduce
#pragma weak PMPI_Bcast
#pragma weak PMPI_Barrier
#pragma weak PMPI_Allgather
#pragma weak PMPI_Allgatherv
#pragma weak PMPI_Alltoall
#pragma weak PMPI_Alltoallv
#pragma weak PMPI_Gather
#pragma weak PMPI_Scatter
#pragma weak PMPI_Send
#pragma weak PMPI_Recv
#pragma weak PMPI_Isend
#pragma weak PMPI_Irecv
#pragma weak PMPI_Wait
#pragma weak PMPI_Waitall
#pragma weak PMPI_Waitany
#pragma weak PMPI_Sendrecv
#pragma weak PMPI_Comm_c2f
#pragma weak PMPI_Comm_size
#pragma weak PMPI_Type_size
#pragma weak PMPI_Get_count
#pragma weak PMPI_Comm_rank
#if defined(OPEN_MPI) /* MPI_COMM_WORLD and MPI_BYTE are objects in Open MPI, constants in MPICH */
#pragma weak ompi_mpi_comm_world
#pragma weak ompi_mpi_byte
#endif

/* One call in progress: its record, or writer NULL when this call writes none. */
struct call {
  mpi_writer_t w;
  struct ompprof_mpi r;
};

static uint64_t type_bytes(MPI_Datatype type, int count)
{
  int size = 0;
  if (count <= 0 || REAL(PMPI_Type_size)(type, &size) != MPI_SUCCESS || size < 0)
    return 0;
  return (uint64_t)count * (uint64_t)size;
}

static int comm_size(MPI_Comm comm)
{
  int n = 0;
  if (REAL(PMPI_Comm_size)(comm, &n) != MPI_SUCCESS)
    return 0;
  return n;
}

/* Stands for "no communicator" (Init, Wait*): MPI_COMM_NULL is a reference into some MPI
 * libraries (Open MPI's ompi_mpi_comm_null), which would tie this library to one. */
#define NO_COMM ((MPI_Comm)0)

/* A clock measure taken before the agent attached its writer (MPI_Init before the first
 * OpenMP construct), written with the next call's records. */
static struct ompprof_mpi clock_kept;
static int clock_waiting;

static void write_clock(mpi_writer_t w, const struct ompprof_mpi *m)
{
  if (w)
    w(m);
  else {
    clock_kept = *m;
    __atomic_store_n(&clock_waiting, 1, __ATOMIC_RELEASE);
  }
}

/* Starts a call's record; `collective` takes the communicator's next sequence number. */
static void enter_with(struct call *c, uint16_t call, MPI_Comm comm, int peer, int tag, uint64_t bytes, int collective,
                       uint64_t request, int count)
{
  c->w = depth++ == 0 ? __atomic_load_n(&writer, __ATOMIC_ACQUIRE) : NULL;
  if (!c->w)
    return;
  if (__atomic_load_n(&clock_waiting, __ATOMIC_ACQUIRE) && __atomic_exchange_n(&clock_waiting, 0, __ATOMIC_ACQ_REL))
    c->w(&clock_kept);
  uint64_t handle = 0, seq = 0;
  if (comm != NO_COMM) {
    handle = (uint64_t)(uint32_t)REAL(PMPI_Comm_c2f)(comm) + 1;
    if (collective)
      seq = __atomic_fetch_add(&seqs[(handle - 1) % SEQ_SLOTS], 1, __ATOMIC_RELAXED);
  }
  c->r = (struct ompprof_mpi){.comm = handle,
                              .bytes = bytes,
                              .seq = seq,
                              .peer = peer,
                              .source = -1,
                              .tag = tag,
                              .request = request,
                              .comm_size = handle ? (uint32_t)comm_size(comm) : 0,
                              .count = count > 0 ? (uint32_t)count : 0,
                              .call = call,
                              .endpoint = OMPPROF_MPI_ENTER};
  c->r.time_ns = now_ns();
  c->w(&c->r);
}

static void enter(struct call *c, uint16_t call, MPI_Comm comm, int peer, int tag, uint64_t bytes, int collective)
{
  enter_with(c, call, comm, peer, tag, bytes, collective, 0, 0);
}

static void leave(struct call *c)
{
  depth--;
  if (!c->w)
    return;
  c->r.time_ns = now_ns();
  c->r.endpoint = OMPPROF_MPI_EXIT;
  c->w(&c->r);
}

/* A received message's source and size, on exit. */
static void received(struct call *c, const MPI_Status *st, MPI_Datatype type, int32_t *source)
{
  int n = 0;
  if (!c->w || st == MPI_STATUS_IGNORE)
    return;
  *source = st->MPI_SOURCE;
  if (REAL(PMPI_Get_count)(st, type, &n) == MPI_SUCCESS && n != MPI_UNDEFINED)
    c->r.bytes = type_bytes(type, n);
}

/* Ranks on different nodes read different clocks. Each rank r > 0 measures its clock against
 * rank 0's by a few ping-pongs on MPI_COMM_WORLD, rank 0 answering the ranks in turn: rank 0's
 * time at its answer is taken to fall at the midpoint of the shortest round trip. Measured as
 * MPI_Init returns and as MPI_Finalize begins, when the program has no message in flight (the tag
 * cannot meet one of its own), so that the profile merge can fit each rank's offset and drift. */
#define CLOCK_TAG    32766 /* MPI guarantees tags up to 32767 */
#define CLOCK_ROUNDS 5

static void answer_clocks(MPI_Comm world, int size)
{
  for (int r = 1; r < size; r++)
    for (int k = 0; k < CLOCK_ROUNDS; k++) {
      char ping;
      if (REAL(PMPI_Recv)(&ping, 1, MPI_BYTE, r, CLOCK_TAG, world, MPI_STATUS_IGNORE) != MPI_SUCCESS)
        return;
      uint64_t t = now_ns();
      if (REAL(PMPI_Send)(&t, (int)sizeof t, MPI_BYTE, r, CLOCK_TAG, world) != MPI_SUCCESS)
        return;
    }
}

static void measure_clock(MPI_Comm world, uint16_t call)
{
  uint64_t best = UINT64_MAX, mid = 0, ref = 0;
  for (int k = 0; k < CLOCK_ROUNDS; k++) {
    char ping = 0;
    uint64_t t0 = 0, t1 = now_ns();
    if (REAL(PMPI_Send)(&ping, 1, MPI_BYTE, 0, CLOCK_TAG, world) != MPI_SUCCESS ||
        REAL(PMPI_Recv)(&t0, (int)sizeof t0, MPI_BYTE, 0, CLOCK_TAG, world, MPI_STATUS_IGNORE) != MPI_SUCCESS)
      return;
    uint64_t t2 = now_ns();
    if (t2 - t1 < best) {
      best = t2 - t1;
      mid = t1 + best / 2;
      ref = t0;
    }
  }
  struct ompprof_mpi m = {.time_ns = mid,
                          .bytes = ref,
                          .seq = best,
                          .peer = 0,
                          .source = -1,
                          .tag = CLOCK_TAG,
                          .call = call,
                          .endpoint = OMPPROF_MPI_CLOCK};
  write_clock(__atomic_load_n(&writer, __ATOMIC_ACQUIRE), &m);
}

static void exchange_clocks(uint16_t call)
{
  MPI_Comm world = MPI_COMM_WORLD;
  int rank = 0, size = comm_size(world);
  if (size < 2 || REAL(PMPI_Comm_rank)(world, &rank) != MPI_SUCCESS)
    return;
  if (rank == 0)
    answer_clocks(world, size);
  else
    measure_clock(world, call);
}

#define CALL(kind, comm, peer, tag, bytes, collective, invocation)                                                     \
  do {                                                                                                                 \
    struct call c_;                                                                                                    \
    enter(&c_, (kind), (comm), (peer), (tag), (bytes), (collective));                                                  \
    int rc_ = (invocation);                                                                                            \
    leave(&c_);                                                                                                        \
    return rc_;                                                                                                        \
  } while (0)

/* Init: the clocks measured before the call's exit, so that their cost is the call's. */
static int initialized(int rc)
{
  if (rc == MPI_SUCCESS && depth == 1)
    exchange_clocks(OMPPROF_MPI_CALL_INIT);
  return rc;
}

static void finalizing(void)
{
  if (depth == 1)
    exchange_clocks(OMPPROF_MPI_CALL_FINALIZE);
}

EXPORT int MPI_Init(int *argc, char ***argv)
{
  CALL(OMPPROF_MPI_CALL_INIT, NO_COMM, -1, -1, 0, 0, initialized(REAL(PMPI_Init)(argc, argv)));
}

EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
  CALL(OMPPROF_MPI_CALL_INIT, NO_COMM, -1, -1, 0, 0,
       initialized(REAL(PMPI_Init_thread)(argc, argv, required, provided)));
}

EXPORT int MPI_Finalize(void)
{
  CALL(OMPPROF_MPI_CALL_FINALIZE, NO_COMM, -1, -1, 0, 0, (finalizing(), REAL(PMPI_Finalize)()));
}

EXPORT int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  CALL(OMPPROF_MPI_CALL_ALLREDUCE, comm, -1, -1, type_bytes(type, count), 1,
       REAL(PMPI_Allreduce)(sendbuf, recvbuf, count, type, op, comm));
}

EXPORT int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                      MPI_Comm comm)
{
  CALL(OMPPROF_MPI_CALL_REDUCE, comm, root, -1, type_bytes(type, count), 1,
       REAL(PMPI_Reduce)(sendbuf, recvbuf, count, type, op, root, comm));
}

EXPORT int MPI_Bcast(void *buffer, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
  CALL(OMPPROF_MPI_CALL_BCAST, comm, root, -1, type_bytes(type, count), 1,
       REAL(PMPI_Bcast)(buffer, count, type, root, comm));
}

EXPORT int MPI_Barrier(MPI_Comm comm)
{
  CALL(OMPPROF_MPI_CALL_BARRIER, comm, -1, -1, 0, 1, REAL(PMPI_Barrier)(comm));
}

EXPORT int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm)
{
  CALL(OMPPROF_MPI_CALL_ALLGATHER, comm, -1, -1, type_bytes(sendtype, sendcount), 1,
       REAL(PMPI_Allgather)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

EXPORT int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
  CALL(OMPPROF_MPI_CALL_ALLGATHERV, comm, -1, -1, type_bytes(sendtype, sendcount), 1,
       REAL(PMPI_Allgatherv)(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm));
}

EXPORT int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm)
{
  CALL(OMPPROF_MPI_CALL_ALLTOALL, comm, -1, -1, type_bytes(sendtype, sendcount) * (uint64_t)comm_size(comm), 1,
       REAL(PMPI_Alltoall)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

static uint64_t sum_bytes(MPI_Datatype type, const int counts[], MPI_Comm comm)
{
  uint64_t sum = 0;
  int n = counts ? comm_size(comm) : 0;
  for (int i = 0; i < n; i++)
    sum += type_bytes(type, counts[i]);
  return sum;
}

EXPORT int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                         void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                         MPI_Comm comm)
{
  CALL(OMPPROF_MPI_CALL_ALLTOALLV, comm, -1, -1, sendbuf == MPI_IN_PLACE ? 0 : sum_bytes(sendtype, sendcounts, comm), 1,
       REAL(PMPI_Alltoallv)(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm));
}

EXPORT int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  CALL(OMPPROF_MPI_CALL_GATHER, comm, root, -1, type_bytes(sendtype, sendcount), 1,
       REAL(PMPI_Gather)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

EXPORT int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  CALL(OMPPROF_MPI_CALL_SCATTER, comm, root, -1, type_bytes(recvtype, recvcount), 1,
       REAL(PMPI_Scatter)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

EXPORT int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  CALL(OMPPROF_MPI_CALL_SEND, comm, dest, tag, type_bytes(type, count), 0,
       REAL(PMPI_Send)(buf, count, type, dest, tag, comm));
}

EXPORT int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
  struct call c;
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  enter(&c, OMPPROF_MPI_CALL_RECV, comm, source, tag, 0, 0);
  int rc = REAL(PMPI_Recv)(buf, count, type, source, tag, comm, st);
  if (rc == MPI_SUCCESS)
    received(&c, st, type, &c.r.peer);
  leave(&c);
  return rc;
}

EXPORT int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                     MPI_Request *request)
{
  struct call c;
  enter(&c, OMPPROF_MPI_CALL_ISEND, comm, dest, tag, type_bytes(type, count), 0);
  int rc = REAL(PMPI_Isend)(buf, count, type, dest, tag, comm, request);
  c.r.request = rc == MPI_SUCCESS ? (uint64_t)(uintptr_t)*request : 0;
  leave(&c);
  return rc;
}

EXPORT int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request *request)
{
  struct call c;
  enter(&c, OMPPROF_MPI_CALL_IRECV, comm, source, tag, type_bytes(type, count), 0);
  int rc = REAL(PMPI_Irecv)(buf, count, type, source, tag, comm, request);
  c.r.request = rc == MPI_SUCCESS ? (uint64_t)(uintptr_t)*request : 0;
  leave(&c);
  return rc;
}

EXPORT int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
  struct call c;
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  /* the request's handle as Isend/Irecv gave it, before the wait frees it */
  enter_with(&c, OMPPROF_MPI_CALL_WAIT, NO_COMM, -1, -1, 0, 0, request ? (uint64_t)(uintptr_t)*request : 0, 0);
  int rc = REAL(PMPI_Wait)(request, st);
  if (rc == MPI_SUCCESS && c.w)
    c.r.peer = st->MPI_SOURCE;
  leave(&c);
  return rc;
}

EXPORT int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
  struct call c;
  enter_with(&c, OMPPROF_MPI_CALL_WAITALL, NO_COMM, -1, -1, 0, 0, 0, count);
  int rc = REAL(PMPI_Waitall)(count, requests, statuses);
  leave(&c);
  return rc;
}

EXPORT int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
  struct call c;
  enter_with(&c, OMPPROF_MPI_CALL_WAITANY, NO_COMM, -1, -1, 0, 0, 0, count);
  int rc = REAL(PMPI_Waitany)(count, requests, index, status);
  leave(&c);
  return rc;
}

EXPORT int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                        MPI_Status *status)
{
  struct call c;
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  enter(&c, OMPPROF_MPI_CALL_SENDRECV, comm, dest, sendtag, type_bytes(sendtype, sendcount), 0);
  if (c.w)
    c.r.source = source;
  int rc = REAL(PMPI_Sendrecv)(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                               recvtag, comm, st);
  if (rc == MPI_SUCCESS)
    received(&c, st, recvtype, &c.r.source);
  leave(&c);
  return rc;
}

/* ---- Fortran (mpif.h and `use mpi`) ----
 * Open MPI's Fortran bindings (libmpi_mpifh: mpi_allreduce_ is ompi_allreduce_f) call
 * PMPI_Allreduce directly, past the C MPI_Allreduce above, so gfortran's calls are wrapped by
 * their own symbols, and call the bindings' own profiling entry points (pmpi_allreduce_). Handles
 * are Fortran integers: a communicator's is what MPI_Comm_c2f gives for it in C, so both
 * languages' records name it alike. (`use mpi_f08` calls ompi_allreduce_f from mpi_allreduce_f08_:
 * not wrapped.) */
typedef MPI_Fint F;

#pragma weak PMPI_Comm_f2c
#pragma weak PMPI_Type_f2c
#pragma weak pmpi_init_
#pragma weak pmpi_init_thread_
#pragma weak pmpi_finalize_
#pragma weak pmpi_allreduce_
#pragma weak pmpi_reduce_
#pragma weak pmpi_bcast_
#pragma weak pmpi_barrier_
#pragma weak pmpi_send_
#pragma weak pmpi_recv_
#pragma weak pmpi_wait_
#pragma weak pmpi_waitall_
void pmpi_init_(F *ierr);
void pmpi_init_thread_(F *required, F *provided, F *ierr);
void pmpi_finalize_(F *ierr);
void pmpi_allreduce_(void *sendbuf, void *recvbuf, F *count, F *type, F *op, F *comm, F *ierr);
void pmpi_reduce_(void *sendbuf, void *recvbuf, F *count, F *type, F *op, F *root, F *comm, F *ierr);
void pmpi_bcast_(void *buffer, F *count, F *type, F *root, F *comm, F *ierr);
void pmpi_barrier_(F *comm, F *ierr);
void pmpi_send_(void *buf, F *count, F *type, F *dest, F *tag, F *comm, F *ierr);
void pmpi_recv_(void *buf, F *count, F *type, F *source, F *tag, F *comm, F *status, F *ierr);
void pmpi_wait_(F *request, F *status, F *ierr);
void pmpi_waitall_(F *count, F *requests, F *statuses, F *ierr);

static MPI_Comm fcomm(const F *comm)
{
  return REAL(PMPI_Comm_f2c)(*comm);
}

static uint64_t fbytes(const F *type, const F *count)
{
  return type_bytes(REAL(PMPI_Type_f2c)(*type), *count);
}

#define FCALL(kind, comm, peer, tag, bytes, collective, invocation)                                                    \
  do {                                                                                                                 \
    struct call c_;                                                                                                    \
    enter(&c_, (kind), (comm), (peer), (tag), (bytes), (collective));                                                  \
    invocation;                                                                                                        \
    leave(&c_);                                                                                                        \
  } while (0)

EXPORT void mpi_init_(F *ierr)
{
  FCALL(OMPPROF_MPI_CALL_INIT, NO_COMM, -1, -1, 0, 0, (REAL(pmpi_init_)(ierr), initialized(*ierr)));
}

EXPORT void mpi_init_thread_(F *required, F *provided, F *ierr)
{
  FCALL(OMPPROF_MPI_CALL_INIT, NO_COMM, -1, -1, 0, 0,
        (REAL(pmpi_init_thread_)(required, provided, ierr), initialized(*ierr)));
}

EXPORT void mpi_finalize_(F *ierr)
{
  FCALL(OMPPROF_MPI_CALL_FINALIZE, NO_COMM, -1, -1, 0, 0, (finalizing(), REAL(pmpi_finalize_)(ierr)));
}

EXPORT void mpi_allreduce_(void *sendbuf, void *recvbuf, F *count, F *type, F *op, F *comm, F *ierr)
{
  FCALL(OMPPROF_MPI_CALL_ALLREDUCE, fcomm(comm), -1, -1, fbytes(type, count), 1,
        REAL(pmpi_allreduce_)(sendbuf, recvbuf, count, type, op, comm, ierr));
}

EXPORT void mpi_reduce_(void *sendbuf, void *recvbuf, F *count, F *type, F *op, F *root, F *comm, F *ierr)
{
  FCALL(OMPPROF_MPI_CALL_REDUCE, fcomm(comm), *root, -1, fbytes(type, count), 1,
        REAL(pmpi_reduce_)(sendbuf, recvbuf, count, type, op, root, comm, ierr));
}

EXPORT void mpi_bcast_(void *buffer, F *count, F *type, F *root, F *comm, F *ierr)
{
  FCALL(OMPPROF_MPI_CALL_BCAST, fcomm(comm), *root, -1, fbytes(type, count), 1,
        REAL(pmpi_bcast_)(buffer, count, type, root, comm, ierr));
}

EXPORT void mpi_barrier_(F *comm, F *ierr)
{
  FCALL(OMPPROF_MPI_CALL_BARRIER, fcomm(comm), -1, -1, 0, 1, REAL(pmpi_barrier_)(comm, ierr));
}

EXPORT void mpi_send_(void *buf, F *count, F *type, F *dest, F *tag, F *comm, F *ierr)
{
  FCALL(OMPPROF_MPI_CALL_SEND, fcomm(comm), *dest, *tag, fbytes(type, count), 0,
        REAL(pmpi_send_)(buf, count, type, dest, tag, comm, ierr));
}

EXPORT void mpi_recv_(void *buf, F *count, F *type, F *source, F *tag, F *comm, F *status, F *ierr)
{
  FCALL(OMPPROF_MPI_CALL_RECV, fcomm(comm), *source, *tag, 0, 0,
        REAL(pmpi_recv_)(buf, count, type, source, tag, comm, status, ierr));
}

EXPORT void mpi_wait_(F *request, F *status, F *ierr)
{
  FCALL(OMPPROF_MPI_CALL_WAIT, NO_COMM, -1, -1, 0, 0, REAL(pmpi_wait_)(request, status, ierr));
}

EXPORT void mpi_waitall_(F *count, F *requests, F *statuses, F *ierr)
{
  FCALL(OMPPROF_MPI_CALL_WAITALL, NO_COMM, -1, -1, 0, 0, REAL(pmpi_waitall_)(count, requests, statuses, ierr));
}
