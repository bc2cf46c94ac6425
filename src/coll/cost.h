/*
 * cost.h - cost models of the registry's algorithms, as data (issue 21, item 1), and the fit
 * of the platform parameters they depend on (item 2).
 *
 * A platform is six parameters: Hockney's latency alpha and time per byte beta inside a node
 * and between nodes, the time per byte of a local reduction gamma, and LogP's overhead o per
 * message (messages posted at once overlap their latencies, not their overheads). Every
 * algorithm's time is linear in them: time = f . params, where the feature vector f (seconds
 * per unit of each parameter) depends on the communicator's shape (size, nodes x ranks per
 * node) and the message size only. Every registry entry carries its algorithm's model
 * (`.cost`, beside the entry; cost_terms.h), a short list of terms {quantity, parameter, link,
 * multiplier}: the quantity is one of a few enumerated functions of the shape (ceil(log2 p),
 * p-1, (p-1)/p n, pipeline steps of a tree, ...), the link says whether it counts inside a node
 * or between nodes; cost.c evaluates them. Composed algorithms add the cost of the inner
 * collectives their parameters name (the all-gather of a Rabenseifner allreduce, the phase
 * algorithm of an orthogonal instance, evaluated on the mesh's lines), so a family instance
 * gets its cost from its parameters, not from a model of its own. The library's own algorithms
 * (native, and whatever runs one) have no model: they are measured, never predicted.
 */
#ifndef AUTOCOLL_COST_H
#define AUTOCOLL_COST_H

#include "coll/coll.h"

/* The platform parameters, in this order in every vector of AC_COST_PARAMS doubles. Their
 * count is that of every vector ac_cost_fit fits: the ADCL halo model's (adcl/halo/cost.h)
 * names the same slots. */
enum {
    AC_COST_ALPHA_INTRA, /* seconds per message inside a node */
    AC_COST_BETA_INTRA,  /* seconds per byte inside a node */
    AC_COST_ALPHA_INTER, /* seconds per message between nodes */
    AC_COST_BETA_INTER,  /* seconds per byte between nodes */
    AC_COST_GAMMA,       /* seconds per byte reduced locally */
    AC_COST_OVERHEAD,    /* seconds a rank spends on each message it handles (LogP's o):
                          * messages posted at once share one latency, not their overheads */
    AC_COST_PARAMS
};

/* "alpha_intra", "beta_intra", "alpha_inter", "beta_inter", "gamma", "overhead": the names of the
 * parameters in reports and autocoll-info. */
const char *ac_cost_param_name(int param);

/* The shape of a call: what every rank knows alike. */
typedef struct ac_cost_shape {
    int size;     /* communicator size p */
    int nodes;    /* nodes the ranks are on (1: one shared-memory node) */
    int ppn;      /* ranks per node (the largest node's count) */
    double bytes; /* the call's message size as ac_call.bytes counts it (docs/guide.md: the block,
                   * the vector or the total, by collective) */
    int lanes;    /* copies of this shape's communication that share each node's link at the
                   * same time (the lines of a mesh phase, the lanes of k leaders); 0 or 1: one */
} ac_cost_shape;

/* The feature vector of `alg` for `shape` into f[AC_COST_PARAMS]: its predicted time is
 * f . params. Returns 0, or -1 when the algorithm has no model (native, or a composed one
 * that runs the library's collective); then f is all zero. */
int ac_cost_features(const ac_algorithm *alg, const ac_cost_shape *shape, double *f);

/* The predicted time of `alg` (f . params), or -1 when it has no model. */
double ac_cost_time(const ac_algorithm *alg, const ac_cost_shape *shape, const double *params);

/* Non-negative least squares fit of the platform parameters to k observations: row i of
 * `rows` (k x AC_COST_PARAMS) is the feature vector of an agreed measurement of `seconds[i]`
 * (> 0). Errors are relative (each row is divided by its time: a 10 us and a 10 ms
 * measurement count alike). With prior_weight > 0, every parameter is also drawn towards
 * prior[j] (> 0) with that weight on its relative deviation, which keeps the parameters no
 * observation determines at their prior values. The exact solution: the least squares
 * solution of every subset of the parameters, the best one that is non-negative (64 subsets
 * of at most 6 unknowns). Result into out[AC_COST_PARAMS]; returns 0, -1 when nothing fits
 * (no usable row and no prior). */
int ac_cost_fit(const double *rows, const double *seconds, int k, const double *prior,
                double prior_weight, double *out);

/* The rules that choose the registry entry pricing the library's own collective where it runs
 * a phase of a composed instance (stand_ins.c): MPICH 4's generic defaults or Open MPI's
 * coll/tuned fixed decisions (SimGrid's `ompi` selector copies them). Process-wide; the model
 * strategy sets it from AUTOCOLL_MODEL_STAND_INS. */
enum { AC_STAND_INS_MPICH, AC_STAND_INS_TUNED, AC_STAND_INS_COUNT };
void ac_cost_set_stand_ins(int rules);
int ac_cost_stand_ins(void);

/* The name of the registry entry that stands for the library's collective c on p ranks with a
 * message of b bytes (as ac_call counts them) under the current rules; NULL where none does. */
const char *ac_cost_stand_in(ac_collective c, int p, double b);

#endif
