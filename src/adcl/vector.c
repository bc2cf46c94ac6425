/*
 * vector.c - ADCL_Vector: a multi-dimensional array with its halo, as ADCL programs hold it: a
 * pointer-of-pointers array (double ** for a 2-D vector of doubles) over elements stored
 * contiguously in C order, with a trailing dimension of nc components when nc > 0.
 */
#include "adcl/adcl.h"

#include <stdlib.h>
#include <string.h>

/* Checks the arguments shared by _allocate_ and _register_; the element extent on success. */
static int check(const char *function, int ndims, const int *dims, int nc, ADCL_Vmap vmap,
                 MPI_Datatype dat, void *data, ADCL_Vector *vec, MPI_Aint *extent)
{
    MPI_Aint lb;
    int size;
    if (!vec || !data) return ac_adcl_fail(ADCL_INVALID_ARG, function, "a NULL data or vector");
    if (ndims < 1 || ndims > AC_HALO_MAXDIMS)
        return ac_adcl_fail(ADCL_INVALID_NDIMS, function, "ndims %d (it takes 1 to %d)", ndims,
                            AC_HALO_MAXDIMS);
    if (!dims) return ac_adcl_fail(ADCL_INVALID_DIMS, function, "dims is NULL");
    if (nc < 0) return ac_adcl_fail(ADCL_INVALID_NC, function, "nc %d (it takes >= 0)", nc);
    if (!ac_adcl_live(AC_ADCL_KIND_VMAP, vmap))
        return ac_adcl_fail(ADCL_INVALID_VMAP, function, "not a live vmap");
    for (int i = 0; i < ndims; i++) {
        int least = vmap->type == ADCL_VECTOR_HALO ? 3 * vmap->hwidth : 1;
        if (dims[i] < least)
            return ac_adcl_fail(ADCL_INVALID_DIMS, function,
                                "dims[%d] = %d (it takes >= %d: both halos and an interior of "
                                "at least the halo width)", i, dims[i], least);
    }
    if (dat == MPI_DATATYPE_NULL || PMPI_Type_size(dat, &size) != MPI_SUCCESS || size <= 0 ||
        PMPI_Type_get_extent(dat, &lb, extent) != MPI_SUCCESS || *extent <= 0)
        return ac_adcl_fail(ADCL_INVALID_DAT, function, "not a datatype of positive size");
    return ADCL_SUCCESS;
}

static int make(ADCL_Vector *vec, int ndims, const int *dims, int nc, ADCL_Vmap vmap,
                MPI_Datatype dat, void *base, void **pointers, int allocated)
{
    ADCL_Vector v = calloc(1, sizeof *v);
    if (!v || ac_adcl_live_add(AC_ADCL_KIND_VECTOR, v) != ADCL_SUCCESS) {
        free(v);
        return ADCL_NO_MEMORY;
    }
    v->ndims = ndims;
    memcpy(v->dims, dims, (size_t)ndims * sizeof *dims);
    v->nc = nc;
    v->vmap = vmap;
    v->dat = dat;
    v->base = base;
    v->pointers = pointers;
    v->allocated = allocated;
    *vec = v;
    return ADCL_SUCCESS;
}

int ADCL_Vector_allocate_generic(int ndims, int *dims, int nc, ADCL_Vmap vmap, MPI_Datatype dat,
                                 void *data, ADCL_Vector *vec)
{
    MPI_Aint extent;
    int rc = check(__func__, ndims, dims, nc, vmap, dat, data, vec, &extent);
    if (rc != ADCL_SUCCESS) return rc;
    int full[AC_HALO_MAXDIMS + 1], total = ndims + (nc > 0);
    size_t cells = 1, npointers = 0, level = 1;
    memcpy(full, dims, (size_t)ndims * sizeof *full);
    if (nc > 0) full[ndims] = nc;
    for (int i = 0; i < total; i++) cells *= (size_t)full[i];
    for (int i = 0; i < total - 1; i++) npointers += level *= (size_t)full[i];

    char *base = calloc(cells, (size_t)extent);
    void **pointers = npointers ? malloc(npointers * sizeof *pointers) : NULL;
    if (!base || (npointers && !pointers)) {
        free(base);
        free(pointers);
        return ac_adcl_fail(ADCL_NO_MEMORY, __func__, "out of memory for %zu elements", cells);
    }
    /* Level k holds one pointer per index prefix of length k + 1; the last level points into
     * the elements, every other one into the next level. */
    void **lev = pointers;
    level = 1;
    for (int k = 0; k < total - 1; k++) {
        level *= (size_t)full[k];
        void **next = lev + level;
        for (size_t i = 0; i < level; i++)
            lev[i] = k == total - 2 ? (void *)(base + i * (size_t)full[k + 1] * (size_t)extent)
                                    : (void *)(next + i * (size_t)full[k + 1]);
        lev = next;
    }
    rc = make(vec, ndims, dims, nc, vmap, dat, base, pointers, 1);
    if (rc != ADCL_SUCCESS) {
        free(base);
        free(pointers);
        return ac_adcl_fail(rc, __func__, "out of memory");
    }
    *(void **)data = total == 1 ? (void *)base : (void *)pointers;
    return ADCL_SUCCESS;
}

int ADCL_Vector_register_generic(int ndims, int *dims, int nc, ADCL_Vmap vmap, MPI_Datatype dat,
                                 void *data, ADCL_Vector *vec)
{
    MPI_Aint extent;
    int rc = check(__func__, ndims, dims, nc, vmap, dat, data, vec, &extent);
    if (rc != ADCL_SUCCESS) return rc;
    /* Down the pointer levels to the first element: the storage is contiguous from there. */
    void *p = *(void **)data;
    for (int k = 0; k < ndims + (nc > 0) - 1 && p; k++) p = ((void **)p)[0];
    if (!p) return ac_adcl_fail(ADCL_INVALID_DATA, __func__, "a NULL pointer in the data");
    rc = make(vec, ndims, dims, nc, vmap, dat, p, NULL, 0);
    return rc == ADCL_SUCCESS ? rc : ac_adcl_fail(rc, __func__, "out of memory");
}

static int release(ADCL_Vector *vec, const char *function, int allocated)
{
    if (!vec || !ac_adcl_live(AC_ADCL_KIND_VECTOR, *vec))
        return ac_adcl_fail(ADCL_INVALID_VECTOR, function, "not a live vector");
    if ((*vec)->allocated != allocated)
        return ac_adcl_fail(ADCL_INVALID_VECTOR, function,
                            allocated ? "a registered vector: use ADCL_Vector_deregister"
                                      : "an allocated vector: use ADCL_Vector_free");
    ac_adcl_live_remove(AC_ADCL_KIND_VECTOR, *vec);
    if (allocated) {
        free((*vec)->base);
        free((*vec)->pointers);
    }
    free(*vec);
    *vec = ADCL_VECTOR_NULL;
    return ADCL_SUCCESS;
}

int ADCL_Vector_free(ADCL_Vector *vec)
{
    return release(vec, __func__, 1);
}

int ADCL_Vector_deregister(ADCL_Vector *vec)
{
    return release(vec, __func__, 0);
}
