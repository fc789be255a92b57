/*
 * The agent's end of the MPI companion library (libompprof-mpi.so, src/mpi_wrap.c): at OMPT
 * initialize it hands the companion, if the launcher preloaded one, the function that writes
 * an MPI call's enter and exit records. The companion runs on the program's threads, outside
 * any signal handler, so the records go into the calling thread's event ring like the OMPT
 * callbacks' (a thread makes one call or callback at a time: the ring stays single-producer).
 */
#include <dlfcn.h>
#include <stdio.h>

#include "agent_state.h"
#include "mpi.h"
#include "record.h"
#include "thread_state.h"

typedef void (*mpi_writer_t)(const struct ompprof_mpi *);
typedef int (*mpi_attach_t)(unsigned abi, mpi_writer_t writer);

/* Only threads that have a slot: one without (a thread no OpenMP event has met) is not sampled
 * either, so its MPI time has nothing to mark. */
static void mpi_write(const struct ompprof_mpi *m)
{
  if (!agent_attached() || (__atomic_load_n(&ompprof_g.gate, __ATOMIC_RELAXED) & GATE_DISABLED))
    return;
  struct priv *p = __atomic_load_n(&ompprof_tls, __ATOMIC_RELAXED);
  if (!PRIV_VALID(p))
    return;
  struct {
    struct ompprof_record_header h;
    struct ompprof_mpi b;
  } rec;
  _Static_assert(sizeof rec == 16 + sizeof(struct ompprof_mpi), "record layout");
  rec.b = *m;
  record_write(&p->cb.event, OMPPROF_REC_MPI, &rec, sizeof rec, p->thread_seq);
}

void mpi_connect(int debug)
{
  mpi_attach_t attach = (mpi_attach_t)dlsym(RTLD_DEFAULT, OMPPROF_MPI_ATTACH_SYMBOL);
  if (!attach)
    return; /* no companion: a program without MPI, or one the launcher did not preload it into */
  int ok = attach(OMPPROF_MPI_ABI, mpi_write);
  if (debug)
    fprintf(stderr, "ompprof agent: MPI companion %s\n", ok ? "attached" : "refused (other ABI)");
}
