/*
 * model_search.c - AUTOCOLL_ADCL_SEARCH=model: autocoll's model-guided selection of a
 * request's function. Measure few functions: those a cost model cannot rule out.
 *
 * Every applicable function has a feature vector (halo/cost.h for the neighbourhood exchange:
 * its predicted time is features . params), agreed over the request's communicator, and the
 * parameters start at defaults (the AUTOCOLL_MODEL_* platform settings of the collectives'
 * model). Rounds, each measured as the other searches' are (AUTOCOLL_ADCL_MODEL_SAMPLES calls
 * of each function, ADCL's outlier filter, one MPI_Allreduce(MAX) for the round):
 *   round 1: the function predicted fastest, and for every structure (the set of parameters a
 *            function's time depends on: point-to-point, fence, post/start) its predicted
 *            fastest, when predicted within (1 + margin) x the best prediction: one
 *            observation of every parameter that can matter.
 *   then:    the parameters are fitted to every agreed time so far (ac_cost_fit: non-negative
 *            least squares on relative errors, drawn towards the defaults, coll/cost.h), every
 *            function is predicted again, and the next round measures the functions not yet
 *            measured that are predicted within (1 + margin) x the best measured time, the
 *            best predicted first. When there is none, the fastest measured wins.
 * A function predicted best is always measured, so a prediction never wins by itself, and the
 * winner is the fastest agreed time. Decisions read only agreed values and the agreed
 * features: every rank runs the same function at every call (DESIGN.md invariant 1). Without
 * a model (user and collective function sets) every applicable function is measured once,
 * as brute force does with the model's samples.
 */
#include "adcl/adcl.h"
#include "adcl/halo/cost.h"
#include "coll/cost.h"
#include "core/config.h"

#include <stdlib.h>
#include <string.h>

enum { P = AC_COST_PARAMS }; /* the fit's vectors: the halo model's slots (halo/cost.h) */

static double predict(const ac_adcl_search *s, int f)
{
    double t = 0.0;
    for (int j = 0; j < P; j++) t += s->features[f * P + j] * s->params[j];
    return t;
}

/* The parameters a function's time depends on, as a bit mask: its structure. */
static unsigned structure(const ac_adcl_search *s, int f)
{
    unsigned mask = 0;
    for (int j = 0; j < P; j++)
        if (s->features[f * P + j] > 0.0) mask |= 1u << j;
    return mask;
}

/* Measures set[0..n) (none measured yet) next, with a model sorted by prediction (then
 * index). */
static void measure(ac_adcl_search *s, int *set, int n)
{
    for (int i = 1; i < n && s->features; i++)
        for (int j = i; j > 0 && predict(s, set[j]) < predict(s, set[j - 1]); j--) {
            int t = set[j];
            set[j] = set[j - 1];
            set[j - 1] = t;
        }
    ac_adcl_search_start_round(s, set, n);
    s->model_round++;
}

/* The measured function with the smallest agreed time, or -1. */
static int fastest_measured(const ac_adcl_search *s)
{
    int best = -1;
    for (int f = 0; f < s->n; f++)
        if (s->applicable[f] && s->agreed[f] >= 0 && (best < 0 || s->agreed[f] < s->agreed[best]))
            best = f;
    return best;
}

/* Refits the parameters to every agreed time; they stay as they are when nothing fits. */
static void fit(ac_adcl_search *s)
{
    double *rows = malloc((size_t)s->n * P * sizeof *rows);
    double *seconds = malloc((size_t)s->n * sizeof *seconds), out[P];
    int k = 0;
    for (int f = 0; f < s->n && rows && seconds; f++) {
        if (!s->applicable[f] || s->agreed[f] < 0) continue;
        memcpy(&rows[k * P], &s->features[f * P], P * sizeof *rows);
        seconds[k++] = s->agreed[f];
    }
    if (rows && seconds && ac_cost_fit(rows, seconds, k, s->prior, s->prior_weight, out) == 0)
        memcpy(s->params, out, sizeof out);
    free(rows);
    free(seconds);
}

/* Whether f is the best predicted function of its structure (the lower index on a tie). */
static int structure_best(const ac_adcl_search *s, int f)
{
    for (int g = 0; g < s->n; g++)
        if (g != f && s->applicable[g] && structure(s, g) == structure(s, f) &&
            (predict(s, g) < predict(s, f) || (predict(s, g) == predict(s, f) && g < f)))
            return 0;
    return 1;
}

/* Whether an applicable function with f's feature vector was measured or comes before f:
 * measuring f would teach the model nothing new. */
static int twin(const ac_adcl_search *s, int f)
{
    for (int g = 0; g < s->n; g++)
        if (g != f && s->applicable[g] && (s->agreed[g] >= 0 || g < f) &&
            memcmp(&s->features[g * P], &s->features[f * P], P * sizeof *s->features) == 0)
            return 1;
    return 0;
}

void ac_adcl_model_advance(ac_adcl_search *s)
{
    int n = 0, best = -1;
    if (!s->features) { /* no model: every applicable function, once */
        for (int f = 0; f < s->n; f++)
            if (s->applicable[f] && s->agreed[f] < 0) s->set[n++] = f;
    } else if (s->model_round == 0) { /* the best predicted, and each structure's best near it */
        for (int f = 0; f < s->n; f++)
            if (s->applicable[f] && (best < 0 || predict(s, f) < predict(s, best))) best = f;
        s->set[n++] = best;
        for (int f = 0; f < s->n; f++)
            if (s->applicable[f] && structure(s, f) != structure(s, best) &&
                predict(s, f) <= (1 + s->model_margin) * predict(s, best) &&
                structure_best(s, f))
                s->set[n++] = f;
    } else { /* what the refitted model cannot rule out against the best measured */
        fit(s);
        double bound = (1 + s->model_margin) * s->agreed[fastest_measured(s)];
        for (int f = 0; f < s->n; f++) /* first one of each feature vector not measured yet */
            if (s->applicable[f] && s->agreed[f] < 0 && predict(s, f) <= bound && !twin(s, f))
                s->set[n++] = f;
        for (int f = 0; f < s->n && n == 0; f++) /* then the twins the model cannot separate */
            if (s->applicable[f] && s->agreed[f] < 0 && predict(s, f) <= bound) s->set[n++] = f;
    }
    if (n)
        measure(s, s->set, n);
    else
        ac_adcl_search_decide(s, fastest_measured(s));
}

int ac_adcl_model_start(ac_adcl_search *s, const double *features, const double *prior,
                        double prior_weight, double margin)
{
    memcpy(s->prior, prior, sizeof s->prior);
    memcpy(s->params, prior, sizeof s->params);
    s->prior_weight = prior_weight;
    s->model_margin = margin;
    if (s->decided) return MPI_SUCCESS; /* one applicable function, or forced */
    if (features) {
        s->features = malloc((size_t)s->n * P * sizeof *s->features);
        if (!s->features) return MPI_ERR_NO_MEM;
        memcpy(s->features, features, (size_t)s->n * P * sizeof *s->features);
    }
    ac_adcl_model_advance(s);
    return MPI_SUCCESS;
}

/* The prior parameters of the halo model: the collectives' platform settings (inter-node
 * latency and time per byte, overhead, and the local time per byte for copies); a fence or
 * handshake round costs a latency. */
static void halo_prior(double *prior)
{
    prior[AC_HALO_COST_LATENCY] = ac_config_real("AUTOCOLL_MODEL_ALPHA_INTER");
    prior[AC_HALO_COST_BYTE] = ac_config_real("AUTOCOLL_MODEL_BETA_INTER");
    prior[AC_HALO_COST_OVERHEAD] = ac_config_real("AUTOCOLL_MODEL_OVERHEAD");
    prior[AC_HALO_COST_COPY] = ac_config_real("AUTOCOLL_MODEL_GAMMA");
    prior[AC_HALO_COST_FENCE] = prior[AC_HALO_COST_LATENCY];
    prior[AC_HALO_COST_HANDSHAKE] = prior[AC_HALO_COST_LATENCY];
}

int ac_adcl_model_request(ADCL_Request r)
{
    double prior[P], *features = NULL;
    int rc = MPI_SUCCESS;
    halo_prior(prior);
    if (r->fnctset == ADCL_FNCTSET_NEIGHBORHOOD && !r->search.decided) {
        ac_halo_shape shape;
        features = malloc((size_t)r->fnctset->n * P * sizeof *features);
        if (!features) return MPI_ERR_NO_MEM;
        rc = ac_halo_cost_shape(&r->halo, &shape);
        for (int f = 0; f < r->fnctset->n && rc == MPI_SUCCESS; f++)
            ac_halo_cost_features(r->fnctset->fncts[f]->halo, &shape, &features[f * P]);
        /* the slowest process's features: equal on every rank */
        if (rc == MPI_SUCCESS)
            rc = PMPI_Allreduce(MPI_IN_PLACE, features, r->fnctset->n * P, MPI_DOUBLE, MPI_MAX,
                                r->comm);
    }
    if (rc == MPI_SUCCESS)
        rc = ac_adcl_model_start(&r->search, features, prior,
                                 ac_config_real("AUTOCOLL_ADCL_MODEL_PRIOR_WEIGHT"),
                                 ac_config_real("AUTOCOLL_ADCL_MODEL_MARGIN"));
    free(features);
    return rc;
}
