/*
 * cost.h - a cost model of the neighbourhood exchange's implementations (registry.c), as data:
 * the predicted time of one exchange is linear in six platform parameters, time = f . params,
 * where the feature vector f (seconds per unit of each parameter) follows from the exchange's
 * shape (which neighbours exist, the bytes of each face, whether faces are contiguous) and the
 * implementation's attributes only: one rule per attribute value, not one per name (cost.c).
 * The parameters are fitted to measurements with ac_cost_fit (coll/cost.h): they are the
 * AC_COST_PARAMS slots of its vectors, named for the exchange.
 */
#ifndef AUTOCOLL_ADCL_HALO_COST_H
#define AUTOCOLL_ADCL_HALO_COST_H

#include "adcl/halo/halo.h"
#include "coll/cost.h"

/* The platform parameters, in this order in every vector of AC_HALO_COST_PARAMS doubles: the
 * slots of ac_cost_fit's vectors, so their count is that of coll/cost.h (a name more than it
 * has slots overflows param_names in cost.c, a compile error). */
enum {
    AC_HALO_COST_LATENCY,   /* seconds per message on the critical path (Hockney's alpha) */
    AC_HALO_COST_BYTE,      /* seconds per byte through a process's link (Hockney's beta) */
    AC_HALO_COST_OVERHEAD,  /* seconds a process spends on each message it handles (LogP's o) */
    AC_HALO_COST_COPY,      /* seconds per byte packed, unpacked, or sent as a non-contiguous
                             * derived datatype */
    AC_HALO_COST_FENCE,     /* seconds per round of a fence (a barrier: ceil(log2 p) rounds) */
    AC_HALO_COST_HANDSHAKE, /* seconds per round of a post/start/complete/wait handshake */
    AC_HALO_COST_PARAMS = AC_COST_PARAMS
};

/* "latency", "byte", "overhead", "copy", "fence", "handshake". */
const char *ac_halo_cost_param_name(int param);

/* What the model reads of one process's exchange. */
typedef struct ac_halo_shape {
    int ndims;
    int size;                               /* processes of the communicator */
    int neighbours;                         /* distinct neighbours (post/start's group) */
    int exists[AC_HALO_MAXDIMS][2];         /* a neighbour on side s of dimension d */
    double send[AC_HALO_MAXDIMS][2];        /* bytes of the face sent through side s */
    double recv[AC_HALO_MAXDIMS][2];        /* bytes of the halo received from side s */
    int contiguous[AC_HALO_MAXDIMS][2];     /* both faces of side s are contiguous in memory */
} ac_halo_shape;

/* This process's shape of plan h (local: no communication). Returns an MPI error code. */
int ac_halo_cost_shape(const ac_halo *h, ac_halo_shape *shape);

/* The feature vector of impl on shape into f[AC_HALO_COST_PARAMS]. */
void ac_halo_cost_features(const ac_halo_impl *impl, const ac_halo_shape *shape, double *f);

/* The predicted time f . params. */
double ac_halo_cost_time(const double *f, const double *params);

#endif
