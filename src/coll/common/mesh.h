/*
 * mesh.h - orthogonal processor meshes (decomposition paper, seeds/003, sections 2 and 3.2).
 *
 * A mesh of a communicator of p ranks has 2 or 3 dimensions n[0] x ... x n[D-1] = p, every
 * size at least 2. Ranks are laid out row-major: rank = sum c[d] * stride[d] with stride[D-1]
 * = 1, so the last dimension varies fastest (in 2D, n[0] row groups of n[1] consecutive
 * ranks, as in the paper's Figure 1). The line of dimension d through a rank holds the n[d]
 * ranks that differ from it only in coordinate d, ranked by that coordinate: the row group
 * (d = D-1) and the column group (d = 0) in 2D.
 *
 * The orthogonal instances of the registry name their layout by its leading sizes
 * (params->layout) and take the last from the communicator size: `orthogonal_2xn_native` is
 * the 2 x p/2 mesh, `orthogonal_2x3xn_native` the 2 x 3 x p/6 mesh.
 */
#ifndef AUTOCOLL_MESH_H
#define AUTOCOLL_MESH_H

#include "coll/coll.h"

/* The mesh sizes of params (dims 2 or 3, leading sizes in layout) for `size` ranks: the
 * number of dimensions, with the sizes in n[], or 0 when the layout does not factor `size`
 * with a last size of at least 2. */
int ac_mesh_layout(int size, const ac_params *p, int n[3]);

/* The line communicators a mesh of params makes (its dimensions), 0 when params names no mesh
 * layout. */
int ac_mesh_lines(const ac_params *p);

/* 1 when a and b run on the same mesh (ac_mesh_get caches one per dims and layout). */
int ac_mesh_same(const ac_params *a, const ac_params *b);

/* The first of cands[0..c] on the mesh of cands[c] (c itself when none before it is), or -1
 * when cands[c] runs on no mesh: a key that names each mesh of a candidate list once. */
int ac_mesh_first(const ac_algorithm *const *cands, int c);

typedef struct ac_mesh {
    int ndims;
    int n[3];         /* sizes */
    int stride[3];    /* rank = sum coord[d] * stride[d] */
    int coord[3];     /* this rank's coordinates */
    MPI_Comm line[3]; /* this rank's line of each dimension (rank in it = coord[d]) */
    int layout[2];    /* the params->layout it was built for (the cache key) */
    struct ac_mesh *next;
} ac_mesh;

/* The mesh of params on `comm`, built on first use (one MPI_Comm_create_group per dimension,
 * collective over the rank's line of it; over comm, every rank takes part) and cached on comm
 * with an attribute, so later calls with the same layout reuse its communicators; freed with
 * comm. MPI_ERR_ARG if the layout does not factor the size. */
int ac_mesh_get(MPI_Comm comm, const ac_params *p, const ac_mesh **mesh);
/* 1 when comm's mesh of params is made already (ac_mesh_get then sends nothing); local, and the
 * same on every rank of comm (meshes are made collectively). */
int ac_mesh_known(MPI_Comm comm, const ac_params *p);
/* How many meshes this process has made so far, on any communicator: while it stays the same,
 * ac_mesh_known gives the same answers (a mesh lives as long as its communicator). */
unsigned long ac_mesh_made(void);

/* 1 when `coord` equals `root` in every dimension after d: the ranks that take part in phase d
 * of a rooted decomposition (bcast and scatter from d = 0 up, gather and reduce from d = D-1
 * down), whose line of dimension d holds the phase's root at coordinate root[d]. */
int ac_mesh_in_phase(const ac_mesh *m, const int *root, int d);

/* Coordinates of `rank` in the mesh. */
void ac_mesh_coords(const ac_mesh *m, int rank, int *coord);

#endif
