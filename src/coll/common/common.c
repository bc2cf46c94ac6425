/*
 * common.c - buffers, datatype copies, local reduction and process-count arithmetic shared by the algorithms.
 */
#include "coll/common/common.h"

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

MPI_Aint ac_extent(MPI_Datatype dtype)
{
    MPI_Aint lb, extent;
    PMPI_Type_get_extent(dtype, &lb, &extent);
    return extent;
}

void *ac_at(const void *buf, MPI_Aint offset)
{
    if (buf == MPI_BOTTOM) return offset == 0 ? MPI_BOTTOM : (void *)(uintptr_t)offset;
    return (char *)buf + offset;
}

int ac_tmp_alloc(ac_tmp *t, MPI_Aint count, MPI_Datatype dtype)
{
    MPI_Aint lb, extent, true_lb, true_extent;
    t->base = NULL;
    t->buf = NULL;
    PMPI_Type_get_extent(dtype, &lb, &extent);
    PMPI_Type_get_true_extent(dtype, &true_lb, &true_extent);
    MPI_Aint bytes = count > 0 ? true_extent + (count - 1) * extent : 0;
    if (count > 0 && extent < 0) bytes = true_extent - (count - 1) * extent; /* negative stride */
    t->base = malloc((size_t)bytes + 1);
    if (!t->base) return MPI_ERR_NO_MEM;
    t->buf = (char *)t->base - true_lb;
    if (count > 0 && extent < 0) t->buf -= (count - 1) * extent;
    return MPI_SUCCESS;
}

void ac_tmp_free(ac_tmp *t)
{
    free(t->base);
    t->base = NULL;
    t->buf = NULL;
}

static int is_plain(MPI_Datatype dtype)
{
    int size;
    MPI_Aint lb, extent, true_lb, true_extent;
    PMPI_Type_size(dtype, &size);
    PMPI_Type_get_extent(dtype, &lb, &extent);
    PMPI_Type_get_true_extent(dtype, &true_lb, &true_extent);
    return lb == 0 && true_lb == 0 && (MPI_Aint)size == extent && extent == true_extent;
}

int ac_is_bytes(MPI_Datatype dtype)
{
    int ni, na, nd, combiner, size, ok = 0;
    MPI_Aint lb, extent;
    PMPI_Type_get_envelope(dtype, &ni, &na, &nd, &combiner);
    if (combiner == MPI_COMBINER_NAMED) {
        PMPI_Type_size(dtype, &size);
        PMPI_Type_get_extent(dtype, &lb, &extent);
        return lb == 0 && extent == (MPI_Aint)size;
    }
    if (combiner == MPI_COMBINER_CONTIGUOUS && ni == 1 && na == 0 && nd == 1) {
        int n, inner_combiner;
        MPI_Datatype inner;
        PMPI_Type_get_contents(dtype, 1, 0, 1, &n, NULL, &inner);
        ok = ac_is_bytes(inner);
        PMPI_Type_get_envelope(inner, &ni, &na, &nd, &inner_combiner);
        if (inner_combiner != MPI_COMBINER_NAMED) PMPI_Type_free(&inner);
    }
    return ok;
}

#if AUTOCOLL_SIMULATED
/* Whether SMPI 3.32 needs `count` elements of dtype at buf rewritten (smpi_single): at
 * MPI_BOTTOM, or more than one element of a type whose lower bound is not 0. */
static int smpi_rewrite(const void *buf, int count, MPI_Datatype dtype)
{
    MPI_Aint lb, extent;
    if (buf == MPI_BOTTOM) return 1;
    return count > 1 && PMPI_Type_get_extent(dtype, &lb, &extent) == MPI_SUCCESS && lb != 0;
}

/* SMPI 3.32 gets two things wrong here. Its MPI_BOTTOM is (void *)-111, which its PMPI_Unpack
 * adds to a type's absolute displacements (writing 111 bytes before the data), and a NULL
 * buffer it refuses. And from one element of a struct or resized type to the next it steps by
 * the end of the type's last block, not by the extent, so that a lower bound other than 0 is
 * added again at every element (an absolute-address type, count 2: SIGSEGV in the harness's
 * MPI_BOTTOM case, gather and scatter trees, 2026-11-27). The same data, then, as one element
 * of an hvector of `count` single elements, which it steps right; at MPI_BOTTOM placed relative
 * to the true lower bound, at that address (*base). */
static int smpi_single(const void *buf, int count, MPI_Datatype dtype, void **base,
                       MPI_Datatype *one)
{
    MPI_Aint lb, extent, true_lb, true_extent;
    MPI_Datatype v = MPI_DATATYPE_NULL;
    int rc = PMPI_Type_get_extent(dtype, &lb, &extent);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_get_true_extent(dtype, &true_lb, &true_extent);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_create_hvector(count, 1, extent, dtype, &v);
    *base = (void *)buf;
    if (rc == MPI_SUCCESS && buf == MPI_BOTTOM) {
        MPI_Aint shift = -true_lb;
        int single = 1;
        rc = PMPI_Type_create_hindexed(1, &single, &shift, v, one);
        PMPI_Type_free(&v);
        *base = (void *)(uintptr_t)true_lb;
    } else if (rc == MPI_SUCCESS) {
        *one = v;
    }
    if (rc == MPI_SUCCESS) rc = PMPI_Type_commit(one);
    return rc;
}
#endif

/* Whether count elements of dtype hold no data (a count of 0, or a type of size 0, such as an
 * absolute-address type of no element at MPI_BOTTOM): packed or unpacked, nothing moves and the
 * position stays. SMPI 3.32 divides by the type's size there (SIGFPE in Datatype::copy: the
 * harness's empty MPI_BOTTOM case, 2026-11-27). */
static int moves_nothing(int count, MPI_Datatype dtype)
{
    int size;
    return count == 0 || (PMPI_Type_size(dtype, &size) == MPI_SUCCESS && size == 0);
}

int ac_pack(const void *inbuf, int incount, MPI_Datatype dtype, void *outbuf, int outsize,
            int *position, MPI_Comm comm)
{
    MPI_Status status;
    int rc, bytes;
    if (moves_nothing(incount, dtype)) return MPI_SUCCESS;
#if AUTOCOLL_SIMULATED
    if (smpi_rewrite(inbuf, incount, dtype)) {
        void *base;
        MPI_Datatype one = MPI_DATATYPE_NULL;
        rc = smpi_single(inbuf, incount, dtype, &base, &one);
        if (rc == MPI_SUCCESS) rc = PMPI_Pack(base, 1, one, outbuf, outsize, position, comm);
        if (one != MPI_DATATYPE_NULL) PMPI_Type_free(&one);
        return rc;
    }
#endif
    if (inbuf != MPI_BOTTOM)
        return PMPI_Pack(inbuf, incount, dtype, outbuf, outsize, position, comm);
    rc = PMPI_Sendrecv(inbuf, incount, dtype, 0, AC_TAG_DATA, (char *)outbuf + *position,
                       outsize - *position, MPI_PACKED, 0, AC_TAG_DATA, MPI_COMM_SELF, &status);
    if (rc != MPI_SUCCESS) return rc;
    rc = PMPI_Get_count(&status, MPI_PACKED, &bytes);
    if (rc == MPI_SUCCESS) *position += bytes;
    return rc;
}

int ac_unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
              MPI_Datatype dtype, MPI_Comm comm)
{
    int rc, size;
    if (moves_nothing(outcount, dtype)) return MPI_SUCCESS;
#if AUTOCOLL_SIMULATED
    if (smpi_rewrite(outbuf, outcount, dtype)) {
        void *base;
        MPI_Datatype one = MPI_DATATYPE_NULL;
        rc = smpi_single(outbuf, outcount, dtype, &base, &one);
        if (rc == MPI_SUCCESS) rc = PMPI_Unpack(inbuf, insize, position, base, 1, one, comm);
        if (one != MPI_DATATYPE_NULL) PMPI_Type_free(&one);
        return rc;
    }
#endif
    if (outbuf != MPI_BOTTOM)
        return PMPI_Unpack(inbuf, insize, position, outbuf, outcount, dtype, comm);
    PMPI_Type_size(dtype, &size);
    int bytes = outcount * size;
    if (bytes > insize - *position) return MPI_ERR_TRUNCATE;
    rc = PMPI_Sendrecv((const char *)inbuf + *position, bytes, MPI_PACKED, 0, AC_TAG_DATA, outbuf,
                       outcount, dtype, 0, AC_TAG_DATA, MPI_COMM_SELF, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS) *position += bytes;
    return rc;
}

int ac_bytes_get(ac_bytes *b, const void *buf, int count, MPI_Datatype dtype, int load,
                 MPI_Comm comm)
{
    int rc, tsize, position = 0;
    MPI_Aint lb, extent;
    b->data = b->copy = NULL;
    rc = PMPI_Type_size(dtype, &tsize);
    if (rc != MPI_SUCCESS) return rc;
    if ((MPI_Aint)count * tsize > INT_MAX) return MPI_ERR_COUNT;
    b->size = count * tsize;
    if (ac_is_bytes(dtype)) {
        PMPI_Type_get_extent(dtype, &lb, &extent);
        b->data = (char *)buf + lb;
        return MPI_SUCCESS;
    }
    b->copy = malloc((size_t)b->size + 1);
    if (!b->copy) return MPI_ERR_NO_MEM;
    b->data = b->copy;
    return load ? ac_pack(buf, count, dtype, b->copy, b->size, &position, comm) : MPI_SUCCESS;
}

int ac_bytes_release(ac_bytes *b, void *buf, int count, MPI_Datatype dtype, int store,
                     MPI_Comm comm, int rc)
{
    int position = 0;
    if (b->copy && store && rc == MPI_SUCCESS)
        rc = ac_unpack(b->copy, b->size, &position, buf, count, dtype, comm);
    free(b->copy);
    b->data = b->copy = NULL;
    return rc;
}

int ac_copy(const void *src, int scount, MPI_Datatype stype, void *dst, int rcount,
            MPI_Datatype rtype)
{
    int rc = MPI_SUCCESS, ssize, pack_size, position = 0;
    void *packed = NULL;
    PMPI_Type_size(stype, &ssize);
    if (scount == 0 || ssize == 0) return MPI_SUCCESS;
    if (stype == rtype && scount == rcount && is_plain(stype)) {
        if (src != dst) memmove(dst, src, (size_t)scount * (size_t)ssize);
        return MPI_SUCCESS;
    }
    if (src == dst && stype == rtype && scount == rcount) return MPI_SUCCESS;
    rc = PMPI_Pack_size(scount, stype, MPI_COMM_SELF, &pack_size);
    if (rc != MPI_SUCCESS) goto out;
    packed = malloc((size_t)pack_size);
    if (!packed) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    rc = ac_pack(src, scount, stype, packed, pack_size, &position, MPI_COMM_SELF);
    if (rc != MPI_SUCCESS) goto out;
    position = 0;
    rc = ac_unpack(packed, pack_size, &position, dst, rcount, rtype, MPI_COMM_SELF);
out:
    free(packed);
    return rc;
}

int ac_reduce_local(const void *in, void *inout, int count, MPI_Datatype dtype, MPI_Op op)
{
    if (count == 0) return MPI_SUCCESS;
    return PMPI_Reduce_local(in, inout, count, dtype, op);
}

int ac_reduce_ordered(char **acc, char **other, MPI_Aint offset, int partner_below, int count,
                      MPI_Datatype dtype, MPI_Op op)
{
    if (partner_below) return ac_reduce_local(*other + offset, *acc + offset, count, dtype, op);
    char *t = *acc;
    int rc = ac_reduce_local(*acc + offset, *other + offset, count, dtype, op);
    *acc = *other;
    *other = t;
    return rc;
}

int ac_wait_pending(int rc, int nreq, MPI_Request *reqs, MPI_Status *stats)
{
    if (nreq > 0) {
        int wrc = PMPI_Waitall(nreq, reqs, stats);
        if (rc == MPI_SUCCESS) rc = wrc;
    }
    return rc;
}

int ac_fold_ranks(MPI_Comm comm, int *rank, int *size, int *pof2, int *rem)
{
    int rc = PMPI_Comm_rank(comm, rank);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_size(comm, size);
    if (rc != MPI_SUCCESS) return rc;
    *pof2 = ac_pow2_floor(*size);
    *rem = *size - *pof2;
    return MPI_SUCCESS;
}

void ac_even_blocks(int count, int n, int *counts, int *displs)
{
    int d = 0;
    for (int b = 0; b < n; b++) {
        int c = count / n + (b < count % n);
        if (counts) counts[b] = c;
        displs[b] = d;
        d += c;
    }
    displs[n] = d;
}

int ac_rooted_block(MPI_Comm comm, int root, int root_count, MPI_Datatype root_type, int count,
                    MPI_Datatype type, int *rank, int *size, MPI_Aint *block)
{
    int tsize, rc = PMPI_Comm_rank(comm, rank);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_size(comm, size);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_size(*rank == root ? root_type : type, &tsize);
    *block = rc == MPI_SUCCESS ? (MPI_Aint)(*rank == root ? root_count : count) * tsize : 0;
    return rc;
}

int ac_is_pow2(int n)
{
    return n > 0 && (n & (n - 1)) == 0;
}

int ac_pow2_floor(int n)
{
    int p = 1;
    while (p * 2 <= n)
        p *= 2;
    return p;
}

int ac_ceil_log2(int n)
{
    int k = 0;
    while ((1 << k) < n)
        k++;
    return k;
}

/* Largest divisor of n that is <= target. */
static int divisor_at_most(int n, int target)
{
    for (int d = target < 1 ? 1 : target; d > 1; d--)
        if (n % d == 0) return d;
    return 1;
}

static int iroot(int p, int k)
{
    int r = 1;
    while (1) {
        long long v = 1;
        for (int i = 0; i < k; i++)
            v *= (r + 1);
        if (v > p) return r;
        r++;
    }
}

void ac_mesh_dims(int p, int ndims, int *dims)
{
    int rest = p;
    for (int i = 0; i < ndims - 1; i++) {
        dims[i] = divisor_at_most(rest, iroot(rest, ndims - i));
        rest /= dims[i];
    }
    dims[ndims - 1] = rest;
    /* sort ascending (ndims <= 3) */
    for (int i = 0; i < ndims; i++)
        for (int j = i + 1; j < ndims; j++)
            if (dims[j] < dims[i]) {
                int t = dims[i];
                dims[i] = dims[j];
                dims[j] = t;
            }
}

/* Serialises the creation of the keyvals: threads may reach a first use together. */
static pthread_mutex_t keyvals_lock = PTHREAD_MUTEX_INITIALIZER;

int ac_comm_cached(MPI_Comm comm, atomic_int *keyval, MPI_Comm_delete_attr_function *delete_fn,
                   void **value)
{
    int rc = MPI_SUCCESS, found = 0;
    *value = NULL;
    int k = atomic_load_explicit(keyval, memory_order_acquire);
    if (k == MPI_KEYVAL_INVALID) {
        pthread_mutex_lock(&keyvals_lock);
        k = atomic_load_explicit(keyval, memory_order_relaxed);
        if (k == MPI_KEYVAL_INVALID &&
            (rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fn, &k, NULL)) ==
                MPI_SUCCESS)
            atomic_store_explicit(keyval, k, memory_order_release);
        pthread_mutex_unlock(&keyvals_lock);
        if (rc != MPI_SUCCESS) return rc;
    }
    rc = PMPI_Comm_get_attr(comm, k, value, &found);
    if (!found) *value = NULL;
    return rc;
}
