/*
 * mesh.c - orthogonal processor meshes: layouts, and their line communicators built lazily
 * and cached on the communicator (decomposition paper section 3.2, "lazy construction").
 */
#include "coll/common/mesh.h"
#include "coll/common/common.h"

#include <stdlib.h>

static atomic_int mesh_keyval = MPI_KEYVAL_INVALID;

int ac_mesh_layout(int size, const ac_params *p, int n[3])
{
    if (!p || (p->dims != 2 && p->dims != 3)) return 0;
    int lead = 1;
    for (int d = 0; d < p->dims - 1; d++) {
        if (p->layout[d] < 2) return 0;
        n[d] = p->layout[d];
        lead *= p->layout[d];
    }
    if (size % lead != 0 || size / lead < 2) return 0;
    n[p->dims - 1] = size / lead;
    return p->dims;
}

int ac_mesh_lines(const ac_params *p)
{
    return p && (p->dims == 2 || p->dims == 3) && p->layout[0] >= 2 ? p->dims : 0;
}

int ac_mesh_same(const ac_params *a, const ac_params *b)
{
    return ac_mesh_lines(a) && ac_mesh_lines(b) && a->dims == b->dims &&
           a->layout[0] == b->layout[0] && (a->dims == 2 || a->layout[1] == b->layout[1]);
}

int ac_mesh_first(const ac_algorithm *const *cands, int c)
{
    if (!ac_mesh_lines(cands[c]->params)) return -1;
    for (int e = 0; e < c; e++)
        if (ac_mesh_same(cands[e]->params, cands[c]->params)) return e;
    return c;
}

static void mesh_free(ac_mesh *m)
{
    while (m) {
        ac_mesh *next = m->next;
        for (int d = 0; d < m->ndims; d++)
            if (m->line[d] != MPI_COMM_NULL) PMPI_Comm_free(&m->line[d]);
        free(m);
        m = next;
    }
}

static int mesh_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    mesh_free(value);
    return MPI_SUCCESS;
}

void ac_mesh_coords(const ac_mesh *m, int rank, int *coord)
{
    for (int d = 0; d < m->ndims; d++)
        coord[d] = rank / m->stride[d] % m->n[d];
}

/* The line of dimension d through `rank`: the ranks equal to it but for coordinate d, ranked by
 * that coordinate. MPI_Comm_create_group, collective over the line alone: where
 * MPI_Comm_split gathers every rank's colour over the whole communicator (SMPI 3.32 at its
 * root, one message each: 138 us a line of 16 at 256 ranks on fat-tree-ib against 37 us, 3.9
 * ms against 1.2 ms on one-switch-gbe; docs/model.md). The tag tells apart a rank's lines of
 * different dimensions, which it makes one after the other while a neighbour may already be
 * on the next. */
static int line_build(MPI_Comm comm, MPI_Group all, ac_mesh *m, int rank, int d)
{
    int n = m->n[d], base = rank - m->coord[d] * m->stride[d];
    int *members = malloc((size_t)n * sizeof *members);
    if (!members) return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++) members[i] = base + i * m->stride[d];
    MPI_Group line;
    int rc = PMPI_Group_incl(all, n, members, &line);
    if (rc == MPI_SUCCESS) {
        rc = PMPI_Comm_create_group(comm, line, AC_TAG_MESH_LINE + d, &m->line[d]);
        PMPI_Group_free(&line);
    }
    free(members);
    return rc;
}

static int mesh_build(MPI_Comm comm, const ac_params *p, ac_mesh **out)
{
    int rc = MPI_SUCCESS, rank, size;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    ac_mesh *m = calloc(1, sizeof *m);
    if (!m) return MPI_ERR_NO_MEM;
    for (int d = 0; d < 3; d++)
        m->line[d] = MPI_COMM_NULL;
    m->ndims = ac_mesh_layout(size, p, m->n);
    if (m->ndims == 0) {
        free(m);
        return MPI_ERR_ARG;
    }
    m->layout[0] = p->layout[0];
    m->layout[1] = p->layout[1];
    m->stride[m->ndims - 1] = 1;
    for (int d = m->ndims - 2; d >= 0; d--)
        m->stride[d] = m->stride[d + 1] * m->n[d + 1];
    ac_mesh_coords(m, rank, m->coord);
    MPI_Group all = MPI_GROUP_NULL; /* comm's group: each line's is a subset of it */
    rc = PMPI_Comm_group(comm, &all);
    for (int d = 0; d < m->ndims && rc == MPI_SUCCESS; d++)
        rc = line_build(comm, all, m, rank, d);
    if (all != MPI_GROUP_NULL) PMPI_Group_free(&all);
    if (rc != MPI_SUCCESS) {
        mesh_free(m);
        return rc;
    }
    *out = m;
    return MPI_SUCCESS;
}

static unsigned long meshes_made; /* by this process, on any communicator (ac_mesh_made) */

/* The mesh of params p in the list from `first`, or NULL. */
static ac_mesh *cached(ac_mesh *first, const ac_params *p)
{
    for (ac_mesh *m = first; m; m = m->next)
        if (m->ndims == p->dims && m->layout[0] == p->layout[0] &&
            (m->ndims == 2 || m->layout[1] == p->layout[1]))
            return m;
    return NULL;
}

int ac_mesh_get(MPI_Comm comm, const ac_params *p, const ac_mesh **mesh)
{
    void *value;
    int rc = ac_comm_cached(comm, &mesh_keyval, mesh_delete, &value);
    if (rc != MPI_SUCCESS) return rc;
    ac_mesh *first = value, *m = p ? cached(first, p) : NULL;
    if (m) {
        *mesh = m;
        return MPI_SUCCESS;
    }
    rc = mesh_build(comm, p, &m);
    if (rc != MPI_SUCCESS) return rc;
    /* Setting the attribute again would run the delete callback on the cached list, so a new
     * mesh goes in behind the head once the attribute is set. */
    if (first) {
        m->next = first->next;
        first->next = m;
    } else {
        rc = PMPI_Comm_set_attr(comm, mesh_keyval, m);
        if (rc != MPI_SUCCESS) {
            mesh_free(m);
            return rc;
        }
    }
    __atomic_fetch_add(&meshes_made, 1, __ATOMIC_RELAXED); /* threads may make meshes */
    *mesh = m;
    return MPI_SUCCESS;
}

unsigned long ac_mesh_made(void)
{
    return __atomic_load_n(&meshes_made, __ATOMIC_RELAXED);
}

int ac_mesh_known(MPI_Comm comm, const ac_params *p)
{
    void *value;
    if (!p || ac_comm_cached(comm, &mesh_keyval, mesh_delete, &value) != MPI_SUCCESS) return 0;
    return cached(value, p) != NULL;
}

int ac_mesh_in_phase(const ac_mesh *m, const int *root, int d)
{
    for (int e = d + 1; e < m->ndims; e++)
        if (m->coord[e] != root[e]) return 0;
    return 1;
}
