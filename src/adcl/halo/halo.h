/*
 * halo.h - the n-dimensional neighbourhood (halo) exchange of an ADCL request: its plan (who the
 * neighbours are, which part of the vector goes where), the registry of its implementations and
 * the steps they are made of.
 *
 * The exchange. A vector of ndims spatial dimensions of n_d cells each (halo included) and a
 * halo of width w: in dimension d the slab of w cells next to each halo, [w, 2w) and
 * [n_d - 2w, n_d - w), goes to the left and right neighbour, whose halo [n_d - w, n_d) and
 * [0, w) it fills. In the other dimensions a face covers the interior [w, n - w) only, so the
 * faces are disjoint from every halo: the result does not depend on the order in which
 * dimensions or neighbours are served (every implementation gives the same bits), and the
 * edges and corners of the halo are never written (what a 5- or 7-point stencil needs). A
 * trailing dimension of nc components travels whole. On an open edge (MPI_PROC_NULL) the halo
 * is left untouched.
 *
 * Messages. A message leaving through side s (0 left, 1 right) of dimension d has tag
 * AC_HALO_TAG + 2d + s, so that a neighbour that is both the left and the right one (a periodic
 * dimension of 1 or 2 processes) still receives each face in the right halo.
 */
#ifndef AUTOCOLL_ADCL_HALO_H
#define AUTOCOLL_ADCL_HALO_H

#include <mpi.h>

#define AC_HALO_MAXDIMS 8
#define AC_HALO_TAG 4100

typedef struct ac_halo_impl ac_halo_impl;

/* The plan of one request's exchange, built by ac_halo_plan (plan.c). */
typedef struct ac_halo {
    MPI_Comm comm;                       /* the request's private communicator */
    int rank, ndims;
    int nbr[AC_HALO_MAXDIMS][2];         /* left and right neighbour, MPI_PROC_NULL at an edge */
    int coords[AC_HALO_MAXDIMS];
    int have_coords;
    int cartesian;                       /* comm carries the Cartesian topology */
    int self_neighbour;                  /* some neighbour is this process */
    int double_neighbour;                /* some dimension has one process on both sides */
    int mismatch;                        /* a neighbour's faces differ from ours in size */
    int window_ok;                       /* the window could be made (ac_halo_window) */
    int neighbor_ok;                     /* MPI_Neighbor_alltoallw exists and follows the
                                          * standard here (ac_halo_neighbor_alltoallw_check) */
    void *base;                          /* the vector's elements */
    MPI_Aint bytes;                      /* their size */
    /* This process's faces: the slab sent through side s of dimension d, the halo filled from
     * side s. The neighbour's faces toward this process, in the neighbour's own vector (for
     * one-sided access): its slab sent toward us, its halo we fill. */
    MPI_Datatype send[AC_HALO_MAXDIMS][2], recv[AC_HALO_MAXDIMS][2];
    MPI_Datatype remote_send[AC_HALO_MAXDIMS][2], remote_recv[AC_HALO_MAXDIMS][2];
    int send_bytes[AC_HALO_MAXDIMS][2], recv_bytes[AC_HALO_MAXDIMS][2]; /* packed sizes */
    char *send_buf[AC_HALO_MAXDIMS][2], *recv_buf[AC_HALO_MAXDIMS][2];  /* pack buffers */
    int unpack[AC_HALO_MAXDIMS][2];      /* a packed face received, to unpack at completion */
    MPI_Request reqs[4 * AC_HALO_MAXDIMS];
    int nreqs;
    MPI_Win win;                         /* over the vector, made at the first one-sided call */
    MPI_Group all_group;                 /* the distinct neighbours */
    const ac_halo_impl *impl;            /* the implementation running now */
} ac_halo;

/* Attribute values of the implementations (their names: ac_halo_attribute_values). */
enum { AC_HALO_AAO, AC_HALO_PAIR };
enum {
    AC_HALO_ISEND_IRECV,
    AC_HALO_SEND_IRECV,
    AC_HALO_SEND_RECV,
    AC_HALO_SENDRECV,
    AC_HALO_PUT,
    AC_HALO_GET,
    AC_HALO_NEIGHBOR_COLLECTIVE
};
enum { AC_HALO_DDT, AC_HALO_PACK };
enum { AC_HALO_SYNC_NONE, AC_HALO_SYNC_FENCE, AC_HALO_SYNC_POST_START };
#define AC_HALO_ATTRIBUTES 4 /* partners, primitive, data, sync */

/* Requirements an implementation's plan must meet (checked by ac_halo_applicable only). */
enum {
    AC_HALO_NEEDS_CARTESIAN = 1u << 0,    /* the communicator carries a Cartesian topology */
    AC_HALO_NEEDS_NO_SELF = 1u << 1,      /* no process is its own neighbour */
    AC_HALO_NEEDS_WINDOW = 1u << 2,       /* the window over the vector exists */
    AC_HALO_NEEDS_STANDARD_NEIGHBORS = 1u << 3 /* the library's MPI_Neighbor_alltoallw delivers
                                                * blocks as the standard says on this topology */
};

/* A registry entry. init starts the exchange; wait (NULL for implementations that finish in
 * init: blocking primitives) completes it. Both return an MPI error code. */
struct ac_halo_impl {
    const char *name;
    int partners, primitive, data, sync; /* attribute values, in AC_HALO_ATTRIBUTES order */
    unsigned requires;
    int (*init)(ac_halo *h);
    int (*wait)(ac_halo *h);
    const char *summary;
};

/* The registry (registry.c), in ADCL's Table 1 order, MPI_Neighbor_alltoallw last. */
const ac_halo_impl *ac_halo_registry(int *count);
/* Names of the attributes and of each attribute's values (NULL-terminated). */
const char *ac_halo_attribute_name(int attribute);
const char *const *ac_halo_attribute_values(int attribute);
/* The value of attribute `attribute` of impl. */
int ac_halo_attribute(const ac_halo_impl *impl, int attribute);
/* Whether impl can run on plan h (its requirements). */
int ac_halo_applicable(const ac_halo_impl *impl, const ac_halo *h);

/* The plan (plan.c). comm is the request's private communicator, collective over it: the
 * neighbours exchange the shapes of their vectors. elements of `dat`: dims[0..ndims) spatial,
 * then nc components when nc > 0. Returns an MPI error code. */
int ac_halo_plan(ac_halo *h, MPI_Comm comm, int ndims, const int nbr[][2], const int *coords,
                 int cartesian, void *base, const int *dims, int nc, int hwidth, MPI_Datatype dat);
/* Releases what the plan holds (collective: the window). */
void ac_halo_release(ac_halo *h);

/* The steps the implementations are made of (engine.c). d: dimension, s: side (0 left, 1
 * right). A face with MPI_PROC_NULL on its side is skipped. Faces are packed into the plan's
 * buffers when the running implementation's data attribute is pack, else sent with their
 * derived datatypes. */
int ac_halo_irecv(ac_halo *h, int d, int s);    /* post the receive of the halo of side s */
int ac_halo_isend(ac_halo *h, int d, int s);    /* start sending the slab of side s */
int ac_halo_send(ac_halo *h, int d, int s);     /* send it, blocking */
int ac_halo_recv(ac_halo *h, int d, int s);     /* receive the halo of side s, blocking */
int ac_halo_sendrecv(ac_halo *h, int d, int s); /* send through s, receive from 1 - s */
int ac_halo_complete(ac_halo *h);               /* wait for the posted requests, unpack */
/* Makes the window over the vector (collective), with errors returned instead of fatal, and
 * agrees whether it exists everywhere (window_ok). Called when the plan is made. */
int ac_halo_window(ac_halo *h);
int ac_halo_access(ac_halo *h, int d, int s);   /* put the slab, or get the halo, of side s */
int ac_halo_post_start(ac_halo *h, MPI_Group group); /* open exposure and access epochs */
int ac_halo_complete_wait(ac_halo *h);          /* close them */

/* The implementations: one file each (a _pack instance shares its ddt sibling's functions, the
 * data attribute selects the path; Put and Get instances share their synchronisation's). */
int ac_halo_isendirecv_aao_init(ac_halo *h);
int ac_halo_isendirecv_aao_wait(ac_halo *h);
int ac_halo_isendirecv_pair_init(ac_halo *h);
int ac_halo_isendirecv_pair_wait(ac_halo *h);
int ac_halo_sendirecv_aao_init(ac_halo *h);
int ac_halo_sendirecv_aao_wait(ac_halo *h);
int ac_halo_sendirecv_pair_init(ac_halo *h);
int ac_halo_sendirecv_pair_wait(ac_halo *h);
int ac_halo_send_recv_pair(ac_halo *h);
int ac_halo_sendrecv_pair(ac_halo *h);
int ac_halo_winfence_aao_init(ac_halo *h);
int ac_halo_winfence_aao_wait(ac_halo *h);
int ac_halo_winfence_pair_init(ac_halo *h);
int ac_halo_winfence_pair_wait(ac_halo *h);
int ac_halo_poststart_aao_init(ac_halo *h);
int ac_halo_poststart_aao_wait(ac_halo *h);
int ac_halo_poststart_pair_init(ac_halo *h);
int ac_halo_poststart_pair_wait(ac_halo *h);
int ac_halo_neighbor_alltoallw(ac_halo *h);
/* Whether the library's MPI_Neighbor_alltoallw delivers each block where the standard says on
 * this plan's Cartesian communicator, agreed over it (collective). */
int ac_halo_neighbor_alltoallw_check(ac_halo *h, int *ok);
/* Whether the MPI library has the neighbourhood collectives at all (a property of the build). */
int ac_halo_neighbor_collectives(void);

#endif
