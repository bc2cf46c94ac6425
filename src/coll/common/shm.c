/*
 * shm.c - the shared-memory window of a communicator (shm.h): made, grown, cached, and the
 * simulated price of a copy through it under SMPI.
 *
 * The window is allocated by the communicator's rank 0 alone (the others ask for 0 bytes) and
 * every rank finds it with MPI_Win_shared_query(rank 0): the portable form, and the one SMPI
 * 3.32 implements (there every rank of the window gets one allocation, rank 0's).
 */
#include "coll/common/shm.h"
#include "coll/common/common.h"

#include <stdlib.h>

#if AUTOCOLL_SIMULATED
#include <simgrid/host.h>
#include <simgrid/zone.h>
#include <smpi/smpi.h>
#endif

struct ac_shm {
    MPI_Win win;         /* MPI_WIN_NULL: none made (failed: the library's collective runs) */
    char *base;          /* the window's first byte, the same memory on every rank */
    size_t half;         /* bytes of each half */
    unsigned long chunk; /* chunks run so far: the next one's half is chunk % 2 */
    int failed;          /* the window could not be made on some rank: never tried again */
};

static atomic_int shm_keyval = MPI_KEYVAL_INVALID;
static int test_refuse = -1; /* AUTOCOLL_TEST_SHM_REFUSE: the world rank refused a window */

void ac_coll_set_test_shm_refuse(int rank)
{
    test_refuse = rank;
}

/* Whether the test setting takes this process's window for refused. */
static int refused_for_test(void)
{
    int world_rank;
    if (test_refuse < 0) return 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    return world_rank == test_refuse;
}

static void window_free(ac_shm *s)
{
    if (s->win == MPI_WIN_NULL) return;
    PMPI_Win_unlock_all(s->win);
    PMPI_Win_free(&s->win);
    s->win = MPI_WIN_NULL;
}

static int shm_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    window_free(value);
    free(value);
    return MPI_SUCCESS;
}

/* Makes s's window of two halves of `half` bytes on comm; every rank learns whether every rank
 * has it (s->failed otherwise). */
static int window_make(ac_shm *s, MPI_Comm comm, size_t half)
{
    int rank, unit, locked = 0;
    PMPI_Comm_rank(comm, &rank);
    void *mine = NULL;
    MPI_Aint size, bytes = rank == 0 ? (MPI_Aint)(2 * half) : 0;
    /* [0]: the window made here, [1]: and usable */
    int here[2] = {0, 0}, all[2] = {0, 0};
    here[0] = PMPI_Win_allocate_shared(bytes, 1, MPI_INFO_NULL, comm, &mine, &s->win) ==
              MPI_SUCCESS;
    if (here[0]) {
        locked = PMPI_Win_lock_all(MPI_MODE_NOCHECK, s->win) == MPI_SUCCESS;
        here[1] = locked && PMPI_Win_shared_query(s->win, 0, &size, &unit, &s->base) ==
                                MPI_SUCCESS &&
                  size >= (MPI_Aint)(2 * half) && !refused_for_test();
    }
    int rc = PMPI_Allreduce(here, all, 2, MPI_INT, MPI_MIN, comm);
    if (rc != MPI_SUCCESS) return rc;
    if (!all[1]) {
        s->failed = 1;
        if (all[0]) { /* made everywhere: freed together */
            if (locked) PMPI_Win_unlock_all(s->win);
            PMPI_Win_free(&s->win);
        }
        s->win = MPI_WIN_NULL; /* made on some ranks only: kept there, unused */
        return MPI_SUCCESS;
    }
    s->half = half;
    return MPI_SUCCESS;
}

int ac_shm_get(MPI_Comm comm, size_t half, ac_shm **shm)
{
    void *value;
    *shm = NULL;
    int rc = ac_comm_cached(comm, &shm_keyval, shm_delete, &value);
    if (rc != MPI_SUCCESS) return rc;
    ac_shm *s = value;
    if (!s) {
        if (!(s = calloc(1, sizeof *s))) return MPI_ERR_NO_MEM; /* every rank: no agreement */
        s->win = MPI_WIN_NULL;
        if ((rc = PMPI_Comm_set_attr(comm, shm_keyval, s)) != MPI_SUCCESS) {
            free(s);
            return rc;
        }
    }
    if (s->failed) return MPI_SUCCESS;
    if (s->win == MPI_WIN_NULL || s->half < half) {
        /* grown: every rank has left the old window's last chunk before it goes */
        if (s->win != MPI_WIN_NULL && (rc = PMPI_Barrier(comm)) != MPI_SUCCESS) return rc;
        window_free(s);
        size_t grown = s->half * 2 > half ? s->half * 2 : half;
        if ((rc = window_make(s, comm, grown)) != MPI_SUCCESS) return rc;
        if (s->failed) return MPI_SUCCESS;
    }
    *shm = s;
    return MPI_SUCCESS;
}

char *ac_shm_next(ac_shm *shm)
{
    return shm->base + (shm->chunk++ % 2) * shm->half;
}

/* MPI_Win_sync orders this rank's loads and stores on the window against the barrier (MPI's
 * unified memory model). SMPI 3.32 does not implement it (it warns and does nothing): its ranks
 * are threads of one process that run one at a time, so its barrier orders them already. */
int ac_shm_publish(ac_shm *shm, MPI_Comm comm)
{
    if (!AUTOCOLL_SIMULATED) PMPI_Win_sync(shm->win);
    int rc = PMPI_Barrier(comm);
    if (!AUTOCOLL_SIMULATED) PMPI_Win_sync(shm->win);
    return rc;
}

#if AUTOCOLL_SIMULATED
/* The platform's copy bandwidth in bytes per second; 0 where it gives none. */
static double copy_bandwidth(void)
{
    static double bw = -1.0; /* per rank: SMPI privatizes the library */
    if (bw < 0.0) {
        const char *v = sg_zone_get_property_value(sg_zone_get_root(), "autocoll/shm-copy-bw");
        char *end = NULL;
        double d = v ? strtod(v, &end) : 0.0;
        bw = v && end != v && *end == '\0' && d > 0.0 ? d : 0.0;
    }
    return bw;
}

int ac_shm_available(void)
{
    return copy_bandwidth() > 0.0;
}

void ac_shm_copied(size_t bytes)
{
    double bw = copy_bandwidth();
    if (bw > 0.0 && bytes > 0)
        smpi_execute_flops((double)bytes / bw * sg_host_get_speed(sg_host_self()));
}
#else
int ac_shm_available(void)
{
    return 1;
}

void ac_shm_copied(size_t bytes)
{
    (void)bytes;
}
#endif

/* The library's collective, where the window cannot be made. */
static int library_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype,
                          MPI_Op op, int root, MPI_Comm comm)
{
    return root < 0 ? PMPI_Allreduce(sbuf, rbuf, count, dtype, op, comm)
                    : PMPI_Reduce(sbuf, rbuf, count, dtype, op, root, comm);
}

size_t ac_shm_slot(size_t block)
{
    size_t slot = block < AC_SHM_CHUNK ? block : AC_SHM_CHUNK;
    return (slot + 63) / 64 * 64;
}

size_t ac_shm_alltoall_slot(size_t block, int size)
{
    size_t most = size > 0 ? AC_SHM_CHUNK / (size_t)size : AC_SHM_CHUNK;
    return ac_shm_slot(block < most ? block : most);
}

int ac_shm_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype, MPI_Op op,
                  int root, MPI_Comm comm)
{
    int rank, size, tsize, rc;
    MPI_Aint lb, extent, true_lb, true_extent;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int receives = root < 0 || rank == root;
    const void *mine = sbuf == MPI_IN_PLACE ? rbuf : sbuf; /* in place: the receiver's */
    if (count == 0) return MPI_SUCCESS;
    if (size == 1)
        return sbuf == MPI_IN_PLACE ? MPI_SUCCESS : ac_copy(sbuf, count, dtype, rbuf, count, dtype);
    PMPI_Type_size(dtype, &tsize);
    PMPI_Type_get_extent(dtype, &lb, &extent);
    PMPI_Type_get_true_extent(dtype, &true_lb, &true_extent);
    /* elements a chunk: a slot of about AC_SHM_CHUNK bytes, at least one element */
    MPI_Aint per = extent > 0 ? AC_SHM_CHUNK / extent : count;
    per = per < 1 ? 1 : per > count ? count : per;
    size_t slot = (size_t)((per - 1) * extent + true_extent);
    slot = (slot + 63) / 64 * 64;
    ac_shm *shm;
    if ((rc = ac_shm_get(comm, slot * (size_t)size, &shm)) != MPI_SUCCESS) return rc;
    if (!shm) return library_reduce(sbuf, rbuf, count, dtype, op, root, comm);
    for (MPI_Aint first = 0; first < count && rc == MPI_SUCCESS; first += per) {
        int n = (int)(count - first < per ? count - first : per);
        char *half = ac_shm_next(shm) - true_lb; /* element 0 of the chunk in slot 0 */
        char *last = half + (size_t)(size - 1) * slot;
        rc = ac_copy(ac_at(mine, first * extent), n, dtype, half + (size_t)rank * slot, n, dtype);
        ac_shm_copied((size_t)n * tsize);
        if (rc == MPI_SUCCESS) rc = ac_shm_publish(shm, comm);
        /* this rank's share of the chunk, over every slot, into the last one */
        int lo = (int)((long long)n * rank / size), hi = (int)((long long)n * (rank + 1) / size);
        for (int i = size - 2; rc == MPI_SUCCESS && hi > lo && i >= 0; i--) {
            rc = ac_reduce_local(half + (size_t)i * slot + lo * extent, last + lo * extent,
                                 hi - lo, dtype, op);
            ac_shm_copied((size_t)(hi - lo) * tsize);
        }
        if (rc == MPI_SUCCESS) rc = ac_shm_publish(shm, comm);
        if (rc == MPI_SUCCESS && receives) {
            rc = ac_copy(last, n, dtype, ac_at(rbuf, first * extent), n, dtype);
            ac_shm_copied((size_t)n * tsize);
        }
    }
    return rc;
}
