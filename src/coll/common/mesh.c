/*
 * mesh.c - orthogonal processor meshes: layouts, and their line communicators built lazily
 * and cached on the communicator (decomposition paper section 3.2, "lazy construction").
 */
#include "coll/common/mesh.h"
#include "coll/common/common.h"

#include <stdlib.h>

static int mesh_keyval = MPI_KEYVAL_INVALID;

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
    /* The line of dimension d: the ranks equal to this one but for coordinate d. */
    for (int d = 0; d < m->ndims && rc == MPI_SUCCESS; d++)
        rc = PMPI_Comm_split(comm, rank - m->coord[d] * m->stride[d], m->coord[d], &m->line[d]);
    if (rc != MPI_SUCCESS) {
        mesh_free(m);
        return rc;
    }
    *out = m;
    return MPI_SUCCESS;
}

int ac_mesh_get(MPI_Comm comm, const ac_params *p, const ac_mesh **mesh)
{
    void *value;
    int rc = ac_comm_cached(comm, &mesh_keyval, mesh_delete, &value);
    if (rc != MPI_SUCCESS) return rc;
    ac_mesh *first = value;
    for (ac_mesh *m = first; m && p; m = m->next)
        if (m->ndims == p->dims && m->layout[0] == p->layout[0] &&
            (m->ndims == 2 || m->layout[1] == p->layout[1])) {
            *mesh = m;
            return MPI_SUCCESS;
        }
    ac_mesh *m;
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
    *mesh = m;
    return MPI_SUCCESS;
}

int ac_mesh_in_phase(const ac_mesh *m, const int *root, int d)
{
    for (int e = d + 1; e < m->ndims; e++)
        if (m->coord[e] != root[e]) return 0;
    return 1;
}
