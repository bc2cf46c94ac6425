/*
 * vmap.c - ADCL_Vmap: which part of a vector a request communicates (its halo of a given width,
 * all of it, a list of blocks, or its contribution to an allreduce or alltoall).
 */
#include "adcl/adcl.h"

#include <stdlib.h>
#include <string.h>

static int make(ADCL_Vmap *vmap, const char *function, int type, ADCL_Vmap *made)
{
    if (!vmap) return ac_adcl_fail(ADCL_INVALID_ARG, function, "the vmap output is NULL");
    ADCL_Vmap m = calloc(1, sizeof *m);
    if (!m) return ac_adcl_fail(ADCL_NO_MEMORY, function, "out of memory");
    m->type = type;
    m->op = MPI_OP_NULL;
    if (ac_adcl_live_add(AC_ADCL_KIND_VMAP, m) != ADCL_SUCCESS) {
        free(m);
        return ac_adcl_fail(ADCL_NO_MEMORY, function, "out of memory");
    }
    *made = m;
    *vmap = m;
    return ADCL_SUCCESS;
}

int ADCL_Vmap_halo_allocate(int hwidth, ADCL_Vmap *vmap)
{
    ADCL_Vmap m = NULL; /* set by make() on success */
    if (hwidth < 1)
        return ac_adcl_fail(ADCL_INVALID_HWIDTH, __func__, "halo width %d (it takes >= 1)",
                            hwidth);
    int rc = make(vmap, __func__, ADCL_VECTOR_HALO, &m);
    if (rc == ADCL_SUCCESS) m->hwidth = hwidth;
    return rc;
}

int ADCL_Vmap_all_allocate(ADCL_Vmap *vmap)
{
    ADCL_Vmap m = NULL; /* set by make() on success */
    return make(vmap, __func__, ADCL_VECTOR_ALL, &m);
}

int ADCL_Vmap_list_allocate(int size, int *rcnts, int *displ, ADCL_Vmap *vmap)
{
    ADCL_Vmap m = NULL; /* set by make() on success */
    if (size < 1 || !rcnts || !displ)
        return ac_adcl_fail(ADCL_INVALID_ARG, __func__,
                            "size %d with%s counts and%s displacements (it takes size >= 1 and "
                            "both arrays)", size, rcnts ? "" : "out", displ ? "" : " no");
    int rc = make(vmap, __func__, ADCL_VECTOR_LIST, &m);
    if (rc != ADCL_SUCCESS) return rc;
    m->rcnts = malloc((size_t)size * sizeof *m->rcnts);
    m->displ = malloc((size_t)size * sizeof *m->displ);
    if (!m->rcnts || !m->displ) {
        ADCL_Vmap_free(vmap);
        return ac_adcl_fail(ADCL_NO_MEMORY, __func__, "out of memory");
    }
    m->size = size;
    memcpy(m->rcnts, rcnts, (size_t)size * sizeof *rcnts);
    memcpy(m->displ, displ, (size_t)size * sizeof *displ);
    return ADCL_SUCCESS;
}

int ADCL_Vmap_allreduce_allocate(MPI_Op op, ADCL_Vmap *vmap)
{
    ADCL_Vmap m = NULL; /* set by make() on success */
    if (op == MPI_OP_NULL) return ac_adcl_fail(ADCL_INVALID_ARG, __func__, "op is MPI_OP_NULL");
    int rc = make(vmap, __func__, ADCL_VECTOR_ALLREDUCE, &m);
    if (rc == ADCL_SUCCESS) m->op = op;
    return rc;
}

int ADCL_Vmap_alltoall_allocate(int scnt, int rcnt, ADCL_Vmap *vmap)
{
    ADCL_Vmap m = NULL; /* set by make() on success */
    if (scnt < 0 || rcnt < 0)
        return ac_adcl_fail(ADCL_INVALID_ARG, __func__, "counts %d and %d (they take >= 0)", scnt,
                            rcnt);
    int rc = make(vmap, __func__, ADCL_VECTOR_ALLTOALL, &m);
    if (rc == ADCL_SUCCESS) {
        m->scnt = scnt;
        m->rcnt = rcnt;
    }
    return rc;
}

int ADCL_Vmap_free(ADCL_Vmap *vmap)
{
    if (!vmap || !ac_adcl_live(AC_ADCL_KIND_VMAP, *vmap))
        return ac_adcl_fail(ADCL_INVALID_VMAP, __func__, "not a live vmap");
    ac_adcl_live_remove(AC_ADCL_KIND_VMAP, *vmap);
    free((*vmap)->rcnts);
    free((*vmap)->displ);
    free(*vmap);
    *vmap = ADCL_VMAP_NULL;
    return ADCL_SUCCESS;
}
