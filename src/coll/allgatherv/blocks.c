/*
 * blocks.c - block movement shared by the allgatherv engines of this folder: the blocking run
 * of an engine written as a schedule, the logical ring (ring and node_ring), and the packed copy
 * of all blocks used by the engines that forward runs of blocks (mesh, recursive doubling, Bruck).
 *
 * The packed copy keeps intermediate data independent of rtype's layout (gaps, lower bounds,
 * negative extents): each block is packed once with MPI_Pack into a slot of exactly
 * rcounts[block] * size(rtype) bytes, runs of slots travel as MPI_PACKED, and every block is
 * unpacked with rtype at its displacement at the end. A library whose packed form were larger
 * than the type size would make MPI_Pack fail with MPI_ERR_TRUNCATE, never corrupt data.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

#include <limits.h>
#include <stdlib.h>

static int ring_member(const int *order, int index)
{
    return order ? order[index] : index;
}

int ac_allgatherv_logical_ring_schedule(ac_sched *s, const void *sbuf, int scount,
                                        MPI_Datatype stype, void *rbuf, const int *rcounts,
                                        const int *displs, MPI_Datatype rtype, const int *order,
                                        ac_sync sync)
{
    int rank = s->rank, size = s->size, pos = 0;
    MPI_Aint ext = ac_extent(rtype);
    if (sbuf != MPI_IN_PLACE) /* the own block, before the first step's messages */
        ac_sched_copy(s, sbuf, scount, stype, ac_at(rbuf, (MPI_Aint)displs[rank] * ext),
                      rcounts[rank], rtype);
    while (ring_member(order, pos) != rank)
        pos++;
    int right = ring_member(order, (pos + 1) % size);
    int left = ring_member(order, (pos - 1 + size) % size);
    for (int i = 0; i < size - 1; i++) {
        /* between steps, the receiver tells its sender that it is ready for the next one */
        if (i > 0) ac_sched_sync_phase(s, sync, left, right);
        int sblock = ring_member(order, (pos - i + size) % size);
        int rblock = ring_member(order, (pos - i - 1 + size) % size);
        ac_sched_send(s, ac_at(rbuf, (MPI_Aint)displs[sblock] * ext), rcounts[sblock], rtype,
                      right);
        ac_sched_recv(s, ac_at(rbuf, (MPI_Aint)displs[rblock] * ext), rcounts[rblock], rtype,
                      left);
        ac_sched_round(s);
    }
    return ac_sched_error(s);
}

int ac_allgatherv_logical_ring(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                               const int *rcounts, const int *displs, MPI_Datatype rtype,
                               MPI_Comm comm, const int *order, ac_sync sync)
{
    ac_sched s;
    int rc = ac_sched_init(&s, comm, AC_TAG_DATA);
    s.blocking = 1;
    if (rc == MPI_SUCCESS)
        rc = ac_allgatherv_logical_ring_schedule(&s, sbuf, scount, stype, rbuf, rcounts, displs,
                                                 rtype, order, sync);
    if (rc == MPI_SUCCESS) rc = ac_sched_run(&s);
    ac_sched_free(&s);
    return rc;
}

int ac_allgatherv_by_schedule(ac_allgatherv_sched_fn *build, const void *sbuf, int scount,
                              MPI_Datatype stype, void *rbuf, const int *rcounts,
                              const int *displs, MPI_Datatype rtype, MPI_Comm comm,
                              const ac_params *p)
{
    ac_sched s;
    int rc = ac_sched_init(&s, comm, AC_TAG_DATA);
    s.blocking = 1;
    if (rc == MPI_SUCCESS) rc = build(&s, sbuf, scount, stype, rbuf, rcounts, displs, rtype, p);
    if (rc == MPI_SUCCESS) rc = ac_sched_run(&s);
    ac_sched_free(&s);
    return rc;
}

static int slot_block(const ac_allgatherv_packed *pk, int slot)
{
    return (slot + pk->shift) % pk->size;
}

/* pk's layout on `rank` of `size`: the slots' offsets (pk->off, allocated), no buffer yet. */
static int pack_layout(ac_allgatherv_packed *pk, int rank, int size, const void *sbuf,
                       const int *rcounts, MPI_Datatype rtype, int rotated)
{
    int tsize;
    PMPI_Type_size(rtype, &tsize);
    pk->rank = rank;
    pk->size = size;
    pk->shift = rotated ? rank : 0;
    pk->in_place = sbuf == MPI_IN_PLACE;
    pk->own_slot = (rank - pk->shift + size) % size;
    pk->buf = NULL;
    pk->off = malloc(sizeof(MPI_Aint) * (size_t)(size + 1));
    if (!pk->off) return MPI_ERR_NO_MEM;
    pk->off[0] = 0;
    for (int s = 0; s < size; s++)
        pk->off[s + 1] = pk->off[s] + (MPI_Aint)rcounts[slot_block(pk, s)] * tsize;
    return MPI_SUCCESS;
}

int ac_allgatherv_pack_init(ac_allgatherv_packed *pk, const void *sbuf, int scount,
                            MPI_Datatype stype, const void *rbuf, const int *rcounts,
                            const int *displs, MPI_Datatype rtype, MPI_Comm comm, int rotated)
{
    int rank, size, position = 0, bytes;
    char *slot;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int rc = pack_layout(pk, rank, size, sbuf, rcounts, rtype, rotated);
    if (rc != MPI_SUCCESS) return rc;
    pk->buf = malloc((size_t)pk->off[pk->size] + 1);
    if (!pk->buf) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    rc = ac_allgatherv_pack_run(pk, pk->own_slot, pk->own_slot + 1, &slot, &bytes);
    if (rc != MPI_SUCCESS) goto out;
    if (pk->in_place)
        rc = ac_pack(ac_at(rbuf, (MPI_Aint)displs[rank] * ac_extent(rtype)), rcounts[rank],
                     rtype, slot, bytes, &position, comm);
    else
        rc = ac_pack(sbuf, scount, stype, slot, bytes, &position, comm);
out:
    if (rc != MPI_SUCCESS) ac_allgatherv_pack_free(pk);
    return rc;
}

int ac_allgatherv_pack_schedule(ac_sched *s, ac_allgatherv_packed *pk, const void *sbuf,
                                int scount, MPI_Datatype stype, const void *rbuf,
                                const int *rcounts, const int *displs, MPI_Datatype rtype,
                                int rotated)
{
    int bytes, rank = s->rank;
    char *slot;
    int rc = pack_layout(pk, rank, s->size, sbuf, rcounts, rtype, rotated);
    if (rc != MPI_SUCCESS) return rc;
    pk->buf = ac_sched_tmp(s, pk->off[pk->size] + 1, MPI_BYTE);
    rc = pk->buf ? ac_allgatherv_pack_run(pk, pk->own_slot, pk->own_slot + 1, &slot, &bytes)
                 : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS && pk->in_place)
        ac_sched_pack(s, ac_at(rbuf, (MPI_Aint)displs[rank] * ac_extent(rtype)),
                      rcounts[rank], rtype, slot, bytes);
    else if (rc == MPI_SUCCESS)
        ac_sched_pack(s, sbuf, scount, stype, slot, bytes);
    if (rc == MPI_SUCCESS) rc = ac_sched_error(s);
    if (rc != MPI_SUCCESS) {
        free(pk->off);
        pk->off = NULL;
    }
    return rc;
}

int ac_allgatherv_pack_run(const ac_allgatherv_packed *pk, int first, int last, char **addr,
                           int *bytes)
{
    MPI_Aint n = pk->off[last] - pk->off[first];
    if (n > INT_MAX) return MPI_ERR_COUNT;
    *addr = pk->buf + pk->off[first];
    *bytes = (int)n;
    return MPI_SUCCESS;
}

int ac_allgatherv_pack_finish(const ac_allgatherv_packed *pk, void *rbuf, const int *rcounts,
                              const int *displs, MPI_Datatype rtype, MPI_Comm comm)
{
    MPI_Aint ext = ac_extent(rtype);
    for (int s = 0; s < pk->size; s++) {
        int rc, bytes, position = 0, block = slot_block(pk, s);
        char *slot;
        if (s == pk->own_slot && pk->in_place) continue;
        rc = ac_allgatherv_pack_run(pk, s, s + 1, &slot, &bytes);
        if (rc != MPI_SUCCESS) return rc;
        rc = ac_unpack(slot, bytes, &position, ac_at(rbuf, (MPI_Aint)displs[block] * ext),
                       rcounts[block], rtype, comm);
        if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
}

int ac_allgatherv_unpack_schedule(ac_sched *s, const ac_allgatherv_packed *pk, void *rbuf,
                                  const int *rcounts, const int *displs, MPI_Datatype rtype)
{
    MPI_Aint ext = ac_extent(rtype);
    for (int k = 0; k < pk->size; k++) {
        int rc, bytes, block = slot_block(pk, k);
        char *slot;
        if (k == pk->own_slot && pk->in_place) continue;
        rc = ac_allgatherv_pack_run(pk, k, k + 1, &slot, &bytes);
        if (rc != MPI_SUCCESS) return rc;
        ac_sched_unpack(s, slot, bytes, ac_at(rbuf, (MPI_Aint)displs[block] * ext),
                        rcounts[block], rtype);
    }
    return ac_sched_error(s);
}

void ac_allgatherv_pack_free(ac_allgatherv_packed *pk)
{
    free(pk->buf);
    free(pk->off);
    pk->buf = NULL;
    pk->off = NULL;
}
