/*
 * request.c - ADCL_Request: a vector, a topology and a function set; each start runs the
 * function its search says, the same on every rank, and times it. The search is a rounds
 * strategy of src/select (rounds.h: AUTOCOLL_ADCL_SEARCH's keyword, brute force for a forced
 * function), whose candidates are the set's functions; its agreement is an MPI_Allreduce(MAX)
 * over the request's communicator.
 *
 * A request works on a private duplicate of the topology's communicator (DESIGN.md invariant
 * 3), which ADCL_Request_get_comm hands to user functions. With ADCL_FNCTSET_NEIGHBORHOOD the
 * request holds the exchange's plan (halo/plan.c); which implementations may run is decided
 * from properties of the topology agreed over the communicator (a MAX of each), so that every
 * rank has the same candidates.
 */
#include "adcl/adcl.h"
#include "adcl/halo/cost.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/log.h"

#include <stdlib.h>
#include <string.h>

static int next_id;

/* The index of the forced function in the set, or -1 (with one warning per run when the name
 * is unknown or the function cannot run here). */
static int forced_index(ADCL_Request req, const int *applicable)
{
    static int warned;
    const char *name = ac_adcl_forced_name();
    int rank;
    if (!name) return -1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int f = 0; f < req->fnctset->n; f++) {
        if (strcmp(req->fnctset->fncts[f]->name, name) != 0) continue;
        if (applicable[f]) return f;
        if (!warned++ && rank == 0)
            ac_log_warn("ADCL function %s cannot run on this topology; selection goes on", name);
        return -1;
    }
    if (!warned++ && rank == 0)
        ac_log_warn("ADCL function %s is not in function set %s; selection goes on", name,
                    req->fnctset->name);
    return -1;
}

/* The attribute values of the set's functions, when they share one attribute set. */
static void attribute_values(ADCL_Fnctset set, int *nattrs, const int ***values)
{
    ADCL_Attrset common = set->fncts[0]->attrset;
    *nattrs = 0;
    *values = NULL;
    for (int f = 1; f < set->n; f++)
        if (set->fncts[f]->attrset != common) common = NULL;
    if (!common) return;
    *values = malloc((size_t)set->n * sizeof **values);
    if (!*values) return; /* the search then ignores the attributes */
    for (int f = 0; f < set->n; f++) (*values)[f] = set->fncts[f]->attrvals;
    *nattrs = common->n;
}

/* The prior parameters of the halo model (model search): the collectives' platform settings
 * (inter-node latency and time per byte, overhead, and the local time per byte for copies); a
 * fence or handshake round costs a latency. */
static void halo_prior(double *prior)
{
    prior[AC_HALO_COST_LATENCY] = ac_config_real("AUTOCOLL_MODEL_ALPHA_INTER");
    prior[AC_HALO_COST_BYTE] = ac_config_real("AUTOCOLL_MODEL_BETA_INTER");
    prior[AC_HALO_COST_OVERHEAD] = ac_config_real("AUTOCOLL_MODEL_OVERHEAD");
    prior[AC_HALO_COST_COPY] = ac_config_real("AUTOCOLL_MODEL_GAMMA");
    prior[AC_HALO_COST_FENCE] = prior[AC_HALO_COST_LATENCY];
    prior[AC_HALO_COST_HANDSHAKE] = prior[AC_HALO_COST_LATENCY];
}

/* The model search's predictions of the neighbourhood set's functions, as data for the
 * strategy: each function's feature vector of the halo cost model (halo/cost.h), the slowest
 * process's (an MPI_Allreduce(MAX) over the communicator: equal on every rank), into
 * r->features. Other sets have no model (r->features NULL). */
static int model_features(ADCL_Request r)
{
    enum { P = AC_COST_PARAMS };
    ac_halo_shape shape;
    if (r->fnctset != ADCL_FNCTSET_NEIGHBORHOOD) return MPI_SUCCESS;
    r->features = malloc((size_t)r->fnctset->n * P * sizeof *r->features);
    if (!r->features) return MPI_ERR_NO_MEM;
    int rc = ac_halo_cost_shape(&r->halo, &shape);
    for (int f = 0; f < r->fnctset->n && rc == MPI_SUCCESS; f++)
        ac_halo_cost_features(r->fnctset->fncts[f]->halo, &shape, &r->features[f * P]);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Allreduce(MPI_IN_PLACE, r->features, r->fnctset->n * P, MPI_DOUBLE, MPI_MAX,
                            r->comm);
    return rc;
}

/* The search's agreement: the maximum over the request's communicator. */
static int agree_max(void *ctx, double *values, int n)
{
    return PMPI_Allreduce(MPI_IN_PLACE, values, n, MPI_DOUBLE, MPI_MAX, *(MPI_Comm *)ctx);
}

/* The search over the request's functions (r->applicable): AUTOCOLL_ADCL_SEARCH's strategy
 * with the facts it reads, or brute force deciding at once on a forced function. */
static int create_search(ADCL_Request r, int nattrs, const int **values)
{
    int n = r->fnctset->n, forced = forced_index(r, r->applicable), napplicable = 0, count;
    const ac_strategy *const *searches = ac_rounds_strategies(&count);
    /* AUTOCOLL_ADCL_SEARCH's keywords, in the order of the rounds strategies */
    const ac_strategy *st =
        forced >= 0 ? &ac_strategy_brute_force
                    : searches[ac_config_keyword("AUTOCOLL_ADCL_SEARCH")];
    int race = forced < 0 && st == &ac_strategy_race_rounds;
    int model = forced < 0 && st == &ac_strategy_model_rounds;
    int rc = MPI_SUCCESS;
    for (int f = 0; f < n; f++) napplicable += r->applicable[f] != 0;
    r->strategy = st;
    r->search_name = forced >= 0 ? "forced" : st->name;
    r->facts = (ac_context_facts){
        .size = r->size,
        .applicable = r->applicable,
        .forced = forced,
        .samples = (int)ac_config_int(race    ? "AUTOCOLL_RACE_SAMPLES"
                                      : model ? "AUTOCOLL_ADCL_MODEL_SAMPLES"
                                              : "AUTOCOLL_ADCL_SAMPLES"),
        .rounds = race ? (int)ac_config_int("AUTOCOLL_RACE_ROUNDS") : 1,
        .margin = race    ? ac_config_real("AUTOCOLL_RACE_MARGIN")
                  : model ? ac_config_real("AUTOCOLL_ADCL_MODEL_MARGIN")
                          : 0.0,
        .nattrs = nattrs,
        .values = (const int *const *)values,
    };
    if (model) {
        halo_prior(r->prior);
        if (napplicable > 1) rc = model_features(r); /* nothing to choose: no model */
        r->facts.features = r->features;
        r->facts.nfeatures = r->features ? AC_COST_PARAMS : 0;
        r->facts.prior = r->prior;
        r->facts.prior_weight = ac_config_real("AUTOCOLL_ADCL_MODEL_PRIOR_WEIGHT");
    }
    if (rc == MPI_SUCCESS && !(r->search = st->create(NULL, n, NULL, &r->facts)))
        rc = MPI_ERR_NO_MEM;
    return rc;
}

/* Frees what create_search made. */
static void free_search(ADCL_Request r)
{
    if (r->search) r->strategy->destroy(r->search);
    r->search = NULL;
    free(r->applicable);
    free(r->features);
}

ADCL_Function ac_adcl_current(ADCL_Request r)
{
    return r->fnctset->fncts[ac_rounds_of(r->search)->current];
}

static int mpi_failure(int rc, const char *function, const char *what)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    PMPI_Error_string(rc, msg, &len);
    return ac_adcl_fail(ADCL_ERROR_INTERNAL, function, "%s: %s", what, msg);
}

int ADCL_Request_create(ADCL_Vector vec, ADCL_Topology topo, ADCL_Fnctset fnctset,
                        ADCL_Request *req)
{
    int predefined = fnctset == ADCL_FNCTSET_NEIGHBORHOOD, rc, *applicable = NULL;
    int collective = ac_adcl_collective_set(fnctset);
    const int **values = NULL;
    ADCL_Request r;
    if (!ac_adcl_initialized())
        return ac_adcl_fail(ADCL_NOT_INITIALIZED, __func__, "ADCL_Init has not run");
    if (!req) return ac_adcl_fail(ADCL_INVALID_ARG, __func__, "the request output is NULL");
    if (!ac_adcl_live(AC_ADCL_KIND_TOPOLOGY, topo))
        return ac_adcl_fail(ADCL_INVALID_TOPOLOGY, __func__, "not a live topology");
    if (!predefined && !collective && !ac_adcl_live(AC_ADCL_KIND_FNCTSET, fnctset))
        return ac_adcl_fail(ADCL_INVALID_FNCTSET, __func__, "not a live function set");
    if (vec != ADCL_VECTOR_NULL && !ac_adcl_live(AC_ADCL_KIND_VECTOR, vec))
        return ac_adcl_fail(ADCL_INVALID_VECTOR, __func__, "not a live vector");
    if (collective && !vec)
        return ac_adcl_fail(ADCL_INVALID_VECTOR, __func__, "the %s set needs a vector",
                            fnctset->name);
    if (predefined) {
        if (!vec || vec->vmap->type != ADCL_VECTOR_HALO)
            return ac_adcl_fail(ADCL_INVALID_VECTOR, __func__,
                                "the neighbourhood exchange needs a vector with a halo vmap");
        if (vec->ndims != topo->ndims)
            return ac_adcl_fail(ADCL_INVALID_VECTOR, __func__,
                                "a vector of %d dimensions on a topology of %d", vec->ndims,
                                topo->ndims);
    }
    r = calloc(1, sizeof *r);
    if (!r) return ac_adcl_fail(ADCL_NO_MEMORY, __func__, "out of memory");
    r->vec = vec;
    r->topo = topo;
    r->fnctset = fnctset;
    r->halo.win = MPI_WIN_NULL;
    rc = PMPI_Comm_dup(topo->comm, &r->comm);
    if (rc != MPI_SUCCESS) {
        free(r);
        return mpi_failure(rc, __func__, "duplicating the communicator");
    }
    PMPI_Comm_rank(r->comm, &r->rank);
    PMPI_Comm_size(r->comm, &r->size);
    if (collective) { /* the request's own set: the algorithms that apply (equal everywhere) */
        const char *why;
        int code = ac_adcl_collective_prepare(r, fnctset, &why);
        if (code != ADCL_SUCCESS) {
            PMPI_Comm_free(&r->comm);
            free(r);
            return ac_adcl_fail(code, __func__, "%s", why);
        }
        fnctset = r->fnctset;
    }
    applicable = malloc((size_t)fnctset->n * sizeof *applicable);
    if (!applicable) {
        if (collective) ac_adcl_collective_release(fnctset);
        PMPI_Comm_free(&r->comm);
        free(r);
        return ac_adcl_fail(ADCL_NO_MEMORY, __func__, "out of memory");
    }
    for (int f = 0; f < fnctset->n; f++) applicable[f] = 1;
    if (predefined) {
        ac_halo *h = &r->halo;
        rc = ac_halo_plan(h, r->comm, topo->ndims, (const int(*)[2])topo->nbr,
                          topo->have_coords ? topo->coords : NULL, topo->cartesian, vec->base,
                          vec->dims, vec->nc, vec->vmap->hwidth, vec->dat);
        /* Agree the properties the requirements read: any rank's makes them so for all. */
        int flags[4] = {h->self_neighbour, h->double_neighbour, !(h->cartesian && h->have_coords),
                        h->mismatch};
        if (rc == MPI_SUCCESS)
            rc = PMPI_Allreduce(MPI_IN_PLACE, flags, 4, MPI_INT, MPI_MAX, r->comm);
        if (rc == MPI_SUCCESS && flags[3]) {
            ac_halo_release(h);
            PMPI_Comm_free(&r->comm);
            free(r);
            free(applicable);
            return ac_adcl_fail(ADCL_INVALID_VECTOR, __func__,
                                "neighbouring vectors have faces of different sizes");
        }
        if (rc == MPI_SUCCESS) {
            h->self_neighbour = flags[0];
            h->double_neighbour = flags[1];
            h->cartesian = h->have_coords = !flags[2];
            rc = ac_halo_window(h);
        }
        h->neighbor_ok = ac_halo_neighbor_collectives() && !h->double_neighbour;
        if (rc == MPI_SUCCESS && ac_halo_neighbor_collectives() && h->cartesian &&
            h->double_neighbour)
            rc = ac_halo_neighbor_alltoallw_check(h, &h->neighbor_ok);
        if (rc == MPI_SUCCESS) {
            for (int f = 0; f < fnctset->n; f++)
                applicable[f] = ac_halo_applicable(fnctset->fncts[f]->halo, h);
        }
    }
    r->applicable = applicable; /* the search's, freed with it */
    if (rc == MPI_SUCCESS) {
        int nattrs;
        attribute_values(fnctset, &nattrs, &values);
        rc = create_search(r, nattrs, values);
    }
    if (rc == MPI_SUCCESS) rc = ac_adcl_history_prepare(r);
    if (rc != MPI_SUCCESS || ac_adcl_live_add(AC_ADCL_KIND_REQUEST, r) != ADCL_SUCCESS) {
        free_search(r);
        free(values);
        free(r->history_key);
        if (predefined) ac_halo_release(&r->halo);
        if (collective) ac_adcl_collective_release(r->fnctset);
        PMPI_Comm_free(&r->comm);
        free(r);
        return rc != MPI_SUCCESS ? mpi_failure(rc, __func__, "planning the exchange")
                                 : ac_adcl_fail(ADCL_NO_MEMORY, __func__, "out of memory");
    }
    r->values = values;
    r->id = next_id++;
    *req = r;
    return ADCL_SUCCESS;
}

int ADCL_Request_init(ADCL_Request req)
{
    if (!ac_adcl_initialized())
        return ac_adcl_fail(ADCL_NOT_INITIALIZED, __func__, "ADCL is not initialised");
    if (!ac_adcl_live(AC_ADCL_KIND_REQUEST, req))
        return ac_adcl_fail(ADCL_INVALID_REQUEST, __func__, "not a live request");
    if (req->in_progress)
        return ac_adcl_fail(ADCL_INVALID_REQUEST, __func__,
                            "the request was started and not waited for");
    ac_adcl_history_start(req); /* before the first call: a warm start when history knows it */
    ADCL_Function f = ac_adcl_current(req);
    int rc = MPI_SUCCESS;
    req->t_init = ac_now();
    req->in_progress = 1;
    if (f->halo) {
        req->halo.impl = f->halo;
        rc = f->halo->init(&req->halo);
    } else if (f->coll) {
        rc = ac_adcl_collective_run(req, f->coll);
    } else {
        f->fnct(req);
    }
    return rc == MPI_SUCCESS ? ADCL_SUCCESS : mpi_failure(rc, __func__, f->name);
}

int ac_adcl_request_measured(ADCL_Request req, double seconds)
{
    const ac_rounds *s = ac_rounds_of(req->search);
    ac_agreement agree = {.max = agree_max, .ctx = &req->comm, .rank = req->rank};
    int was_deciding = !s->decided, deciding;
    int rc = req->strategy->observe(req->search, s->current, seconds, &agree, &deciding);
    if (rc == MPI_SUCCESS && was_deciding && !deciding && req->rank == 0)
        ac_log_info("ADCL request %d (%s): %s after %d calls, %d functions measured", req->id,
                    req->fnctset->name, ac_adcl_current(req)->name, s->selection_calls,
                    s->measured);
    return rc;
}

int ADCL_Request_wait(ADCL_Request req)
{
    if (!ac_adcl_live(AC_ADCL_KIND_REQUEST, req))
        return ac_adcl_fail(ADCL_INVALID_REQUEST, __func__, "not a live request");
    if (!req->in_progress)
        return ac_adcl_fail(ADCL_INVALID_REQUEST, __func__, "the request was not started");
    ADCL_Function f = ac_adcl_current(req);
    int rc = MPI_SUCCESS;
    if (f->halo && f->halo->wait) rc = f->halo->wait(&req->halo);
    req->in_progress = 0;
    if (rc != MPI_SUCCESS) return mpi_failure(rc, __func__, f->name);
    /* With a timer, the timer's interval is the measurement (timer.c). */
    if (!req->timer) rc = ac_adcl_request_measured(req, ac_now() - req->t_init);
    return rc == MPI_SUCCESS ? ADCL_SUCCESS : mpi_failure(rc, __func__, "agreeing the timings");
}

int ADCL_Request_start(ADCL_Request req)
{
    int rc = ADCL_Request_init(req);
    return rc == ADCL_SUCCESS ? ADCL_Request_wait(req) : rc;
}

int ADCL_Request_free(ADCL_Request *req)
{
    if (!req || !ac_adcl_live(AC_ADCL_KIND_REQUEST, *req))
        return ac_adcl_fail(ADCL_INVALID_REQUEST, __func__, "not a live request");
    ADCL_Request r = *req;
    if (r->in_progress)
        return ac_adcl_fail(ADCL_INVALID_REQUEST, __func__,
                            "the request was started and not waited for");
    ac_adcl_history_save(r);
    ac_adcl_record(r);
    ac_adcl_live_remove(AC_ADCL_KIND_REQUEST, r);
    if (ac_adcl_live(AC_ADCL_KIND_TIMER, r->timer)) /* the timer forgets it */
        for (int i = 0; i < r->timer->n; i++)
            if (r->timer->reqs[i] == r) r->timer->reqs[i] = ADCL_REQUEST_NULL;
    if (r->fnctset == ADCL_FNCTSET_NEIGHBORHOOD) ac_halo_release(&r->halo);
    if (r->fnctset->owned) ac_adcl_collective_release(r->fnctset);
    free_search(r);
    free(r->values);
    free(r->history_key);
    PMPI_Comm_free(&r->comm);
    free(r);
    *req = ADCL_REQUEST_NULL;
    return ADCL_SUCCESS;
}

int ADCL_Request_get_comm(ADCL_Request req, MPI_Comm *comm, int *rank, int *size)
{
    if (!ac_adcl_live(AC_ADCL_KIND_REQUEST, req))
        return ac_adcl_fail(ADCL_INVALID_REQUEST, __func__, "not a live request");
    if (comm) *comm = req->comm;
    if (rank) *rank = req->rank;
    if (size) *size = req->size;
    return ADCL_SUCCESS;
}

/* n strings as one allocation: the array of pointers, then the characters. */
static char **strings(int n, const char *const *src)
{
    size_t bytes = (size_t)n * sizeof(char *);
    for (int i = 0; i < n; i++) bytes += strlen(src[i]) + 1;
    char **out = malloc(bytes ? bytes : 1);
    if (!out) return NULL;
    char *p = (char *)(out + n);
    for (int i = 0; i < n; i++) {
        out[i] = strcpy(p, src[i]);
        p += strlen(src[i]) + 1;
    }
    return out;
}

int ADCL_Request_get_curr_function(ADCL_Request req, char **name, char ***attr_names,
                                   int *attr_num, char ***value_names, int **values)
{
    if (!ac_adcl_live(AC_ADCL_KIND_REQUEST, req))
        return ac_adcl_fail(ADCL_INVALID_REQUEST, __func__, "not a live request");
    ac_adcl_history_start(req); /* the function of the first call is the warm start's */
    ADCL_Function f = ac_adcl_current(req);
    int n = f->attrset ? f->attrset->n : 0;
    const char *anames[AC_HALO_MAXDIMS * 4 + 1], *vnames[AC_HALO_MAXDIMS * 4 + 1];
    const char **an = n <= AC_HALO_MAXDIMS * 4 ? anames : malloc((size_t)n * sizeof *an);
    const char **vn = n <= AC_HALO_MAXDIMS * 4 ? vnames : malloc((size_t)n * sizeof *vn);
    int rc = ADCL_SUCCESS;
    if (!an || !vn) rc = ADCL_NO_MEMORY;
    for (int a = 0; a < n && rc == ADCL_SUCCESS; a++) {
        ADCL_Attribute attr = f->attrset->attrs[a];
        an[a] = attr->name;
        vn[a] = "";
        for (int i = 0; i < attr->n; i++)
            if (attr->values[i] == f->attrvals[a]) vn[a] = attr->value_names[i];
    }
    if (attr_num) *attr_num = n;
    if (rc == ADCL_SUCCESS && name) {
        *name = malloc(strlen(f->name) + 1);
        if (*name) strcpy(*name, f->name);
        else rc = ADCL_NO_MEMORY;
    }
    if (rc == ADCL_SUCCESS && attr_names && !(*attr_names = strings(n, an))) rc = ADCL_NO_MEMORY;
    if (rc == ADCL_SUCCESS && value_names && !(*value_names = strings(n, vn)))
        rc = ADCL_NO_MEMORY;
    if (rc == ADCL_SUCCESS && values) {
        *values = malloc((size_t)(n ? n : 1) * sizeof **values);
        if (!*values) rc = ADCL_NO_MEMORY;
        else if (n) memcpy(*values, f->attrvals, (size_t)n * sizeof **values);
    }
    if (an != anames) free(an);
    if (vn != vnames) free(vn);
    return rc == ADCL_SUCCESS ? rc : ac_adcl_fail(rc, __func__, "out of memory");
}
