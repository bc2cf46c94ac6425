/*
 * cost.c - the evaluation of the registry's cost models, and the fit of the platform
 * parameters (cost.h).
 *
 * The models themselves are data beside their registry entries (an entry's `.cost`, in the
 * vocabulary of cost_terms.h: terms {quantity, parameter, link, multiplier} and inner
 * collectives). This file computes the quantities of a shape, shares each term between the
 * intra- and inter-node parameters by its link, adds the inner collectives' features (the model
 * of the registry entry that runs params->allgatherv or params->alltoallv, on blocks of the
 * vector; an orthogonal instance's phase algorithm on each dimension of its mesh) and fits the
 * parameters to observations. An entry without a model (the library's algorithms, and whatever
 * runs one) has no features.
 */
#include "coll/cost.h"
#include "coll/cost_terms.h"
#include "coll/common/common.h"
#include "coll/common/mesh.h"
#include "coll/common/shm.h"

#include <math.h>
#include <string.h>

static const char *const param_names[AC_COST_PARAMS] = {
    [AC_COST_ALPHA_INTRA] = "alpha_intra", [AC_COST_BETA_INTRA] = "beta_intra",
    [AC_COST_ALPHA_INTER] = "alpha_inter", [AC_COST_BETA_INTER] = "beta_inter",
    [AC_COST_GAMMA] = "gamma", [AC_COST_OVERHEAD] = "overhead",
};

const char *ac_cost_param_name(int param)
{
    return param >= 0 && param < AC_COST_PARAMS ? param_names[param] : "?";
}

/* The models of the inner collectives a composed algorithm's parameters name by function:
 * those of the registry entries that run them (every entry of one function has its model).
 * NULL: no entry runs it, or the library's collective (NULL, native: no model). */
static const ac_cost_model *allgatherv_model(ac_allgatherv_fn *fn)
{
    ac_registry r = ac_registry_of(AC_ALLGATHERV);
    for (int i = 0; fn && i < r.count; i++)
        if (r.algorithms[i].fn.allgatherv == fn) return r.algorithms[i].cost;
    return NULL;
}

static const ac_cost_model *alltoallv_model(ac_alltoallv_fn *fn)
{
    ac_registry r = ac_registry_of(AC_ALLTOALLV);
    for (int i = 0; fn && i < r.count; i++)
        if (r.algorithms[i].fn.alltoallv == fn) return r.algorithms[i].cost;
    return NULL;
}

/* The algorithm that prices phase algorithm `a` on shape s: `a` itself when it has a model, the
 * stand-in of the library's collective when it is native (stand_ins.c), else NULL. */
static const ac_algorithm *phase_priced(const ac_algorithm *a, const ac_cost_shape *s)
{
    if (a->cost) return a;
    if (a != ac_registry_native(a->collective)) return NULL;
    const char *name = ac_cost_stand_in(a->collective, s->size, s->bytes);
    return name ? ac_registry_find(a->collective, name) : NULL;
}

/* The unit bytes m of a call of collective c: the total over p for the v-collectives. */
static double unit_bytes(ac_collective c, const ac_cost_shape *s)
{
    if (c == AC_BARRIER) return 0.0;
    if (c == AC_ALLGATHERV || c == AC_ALLTOALLV) return s->bytes / (double)s->size;
    return s->bytes;
}

/* The bytes ac_call counts for a call of collective c on p ranks with blocks of `block`. */
static double call_bytes(ac_collective c, int p, double block)
{
    return c == AC_ALLGATHERV || c == AC_ALLTOALLV ? block * (double)p : block;
}

/* A tree's shape for the pipeline (p > 1). The tree engine posts a node's sends to its children
 * at once, so their latencies overlap and the node's link carries their bytes one after the
 * other: a level of the tree costs alpha + f s beta when the sending node has f children. L is
 * the number of levels, F the root's children (it sends F x m segments: the pipeline's
 * bottleneck), S the sum of the sending nodes' children along the critical path:
 *   binomial  L = ceil(log2 p), F = L, S = L (L + 1) / 2  (the root's first child heads the
 *             largest subtree, and so on down)
 *   k-nomial  L = ceil(log_k p), F = (k - 1) L, S = (k - 1) L (L + 1) / 2
 *   binary    L = floor(log2 p), F = S / L = 2
 *   chain     L = p - 1, F = 1, S = p - 1
 *   flat      L = 1, F = S = p - 1
 * A pipelined tree of m segments of s bytes then takes (L + m - 1) alpha + (S + F (m - 1)) s
 * beta: the first segment's way down, then the root's other segments.
 * A reduction (`reduce`) combines its children's data one child after the other, so the
 * receives along the critical path add up: S = L for the binomial tree (the root's children
 * finish one step apart), (k - 1) L for the k-nomial, 2 L - 1 for the binary tree (2 L when it
 * is complete); the flat and k-nomial trees take one latency more than their levels (their
 * receives are posted at once, the combining is not): as SimGrid measured them on the
 * contention-free platform of scripts/cost_check. */
static void tree_shape(const ac_params *pr, int p, int reduce, double *levels, double *fanout,
                       double *sum)
{
    ac_tree_kind kind = pr ? pr->tree : AC_TREE_BINOMIAL;
    int l = 0, k = kind == AC_TREE_KNOMIAL && pr->k >= 2 ? pr->k : 2;
    switch (kind) {
    case AC_TREE_BINARY:
        while ((2 << l) <= p) l++;
        *levels = l;
        *fanout = p > 2 ? 2.0 : 1.0;
        *sum = *fanout * l;
        if (reduce && p > 2) *levels = *sum = (2 << l) - 1 == p ? 2 * l : 2 * l - 1;
        return;
    case AC_TREE_CHAIN:
        *levels = *sum = p - 1;
        *fanout = 1.0;
        return;
    case AC_TREE_FLAT:
        *levels = reduce ? 2.0 : 1.0;
        *fanout = *sum = p - 1;
        return;
    case AC_TREE_BINOMIAL:
    case AC_TREE_KNOMIAL:
        break;
    }
    for (long reach = 1; reach < p; reach *= k) l++;
    *levels = reduce && kind == AC_TREE_KNOMIAL ? l + 1 : l;
    *fanout = (double)(k - 1) * l;
    *sum = reduce ? *fanout : (double)(k - 1) * l * (l + 1) / 2.0;
}

static double quantity(ac_cost_quantity q, const ac_params *pr, const ac_cost_shape *s, double m)
{
    int p = s->size, p2 = ac_pow2_floor(p), log = ac_ceil_log2(p), floor_log = ac_ceil_log2(p2);
    double dp = p, not_pow2 = ac_is_pow2(p) ? 0.0 : 1.0, levels = 0, fanout = 0, sum = 0;
    int dims[3] = {1, 1, 1}, ndims = pr && pr->dims == 3 ? 3 : 2;
    double mesh_phases = 0.0, mesh_steps = 0.0, mesh_blocks = 0.0, scatter = 0.0;
    if (q == Q_MESH_PHASES || q == Q_MESH_STEPS || q == Q_N_MESH) {
        ac_mesh_dims(p, ndims, dims);
        for (int d = 0; d < ndims; d++) {
            mesh_phases += dims[d] > 1;
            mesh_steps += dims[d] - 1;
            mesh_blocks += (double)(dims[d] - 1) * dp / dims[d];
        }
    }
    for (int l = 1; q == Q_N_SCATTER && l <= log; l++) scatter += ((1 << l) - 1) / dp * m;
    int segment = pr ? pr->segment : 0, segmented = segment > 0 && m > segment;
    double nseg = segmented ? ceil(m / segment) : 1.0, step_bytes = segmented ? segment : m;
    int reduce = q == Q_REDUCE_STEPS || q == Q_REDUCE_MESSAGES || q == Q_REDUCE_BYTES;
    if (p > 1) tree_shape(pr, p, reduce, &levels, &fanout, &sum);
    switch (q) {
    case Q_ONE: return p > 1 ? 1.0 : 0.0;
    case Q_LOG: return log;
    case Q_FLOOR_LOG: return floor_log;
    case Q_NOT_POW2: return not_pow2;
    case Q_P1: return dp - 1.0;
    case Q_SYNC: {
        ac_sync sync = pr ? pr->sync : AC_SYNC_NONE;
        double phases = p > 2 ? dp - 2.0 : 0.0;
        return sync == AC_SYNC_LIGHT ? phases : sync == AC_SYNC_BARRIER ? phases * log : 0.0;
    }
    case Q_MESH_PHASES: return mesh_phases;
    case Q_MESH_STEPS: return mesh_steps;
    case Q_N: return m;
    case Q_N_LOG: return m * log;
    case Q_N_FLOOR_LOG: return m * floor_log;
    case Q_N_NOT_POW2: return m * not_pow2;
    case Q_N_FRACTION: return (dp - 1.0) / dp * m;
    case Q_N_FRACTION_P2: return (double)(p2 - 1) / p2 * m;
    case Q_N_P1: return (dp - 1.0) * m;
    case Q_N_P1_P: return (dp - 1.0) * dp * m;
    case Q_N_HALF_P_LOG: return dp / 2.0 * log * m;
    case Q_N_MESH: return mesh_blocks * m;
    case Q_N_SCATTER: return scatter;
    case Q_TREE_STEPS:
    case Q_REDUCE_STEPS: return p > 1 ? levels + nseg - 1.0 : 0.0;
    case Q_TREE_MESSAGES:
    case Q_REDUCE_MESSAGES: return p > 1 ? sum + fanout * (nseg - 1.0) : 0.0;
    case Q_TREE_BYTES:
    case Q_REDUCE_BYTES: return p > 1 ? (sum + fanout * (nseg - 1.0)) * step_bytes : 0.0;
    case Q_ROOT_MESSAGES: return p > 1 ? fanout * nseg : 0.0;
    case Q_ROOT_STEPS: return p > 1 ? levels + nseg - 1.0 : 0.0;
    case Q_ROOT_BYTES:
        if (pr && pr->tree == AC_TREE_CHAIN && !(segment > 0 && segment <= m))
            return dp * (dp - 1.0) / 2.0 * m;
        return (dp - 1.0) * m;
    case Q_PPN1: return s->ppn - 1;
    case Q_N_PPN1_P: return (double)(s->ppn - 1) * dp * m;
    case Q_SHM_CHUNK: return m < AC_SHM_CHUNK ? m : AC_SHM_CHUNK;
    case Q_SHM_SYNC_STEPS: return m > 0 ? ceil(m / AC_SHM_CHUNK) * log : 0.0;
    case Q_SHM_ALLTOALL_SYNC_STEPS:
        return m > 0 ? ceil(m / (double)ac_shm_alltoall_slot((size_t)m, p)) * log : 0.0;
    }
    return 0.0;
}

/* The share of the steps at distances 1, 2, 4, ... that stay inside a node. */
static double intra_share(const ac_cost_shape *s)
{
    int steps = ac_ceil_log2(s->size), local = 0;
    if (s->nodes <= 1) return 1.0;
    if (steps == 0) return 0.0;
    while ((2 << local) <= s->ppn) local++;
    return (double)(local < steps ? local : steps) / steps;
}

/* The share of a mesh term (L_MESH, cost_terms.h) that stays inside a node. */
static double mesh_intra_share(ac_cost_quantity q, const ac_params *pr, const ac_cost_shape *s)
{
    int dims[3] = {1, 1, 1}, ndims = pr && pr->dims == 3 ? 3 : 2;
    double intra = 0.0, all = 0.0;
    if (s->nodes <= 1) return 1.0;
    ac_mesh_dims(s->size, ndims, dims);
    for (int k = 0, stride = 1; k < ndims; stride *= dims[k], k++) {
        int d = dims[k], local = s->ppn / stride;
        if (d <= 1) continue;
        local = local < 1 ? 1 : local > d ? d : local;
        switch (q) {
        case Q_MESH_PHASES: /* a phase waits for its slowest line */
            all += 1.0;
            intra += local == d;
            break;
        case Q_N_MESH: /* (d - 1) p / d blocks a rank, (local - 1) p / d of them inside */
            all += (d - 1.0) * s->size / d;
            intra += (local - 1.0) * s->size / d;
            break;
        case Q_N_P1: /* the all-gather's phase k forwards runs of s_k blocks */
            all += (d - 1.0) * stride;
            intra += (local - 1.0) * stride;
            break;
        default: /* messages */
            all += d - 1.0;
            intra += local - 1.0;
            break;
        }
    }
    return all > 0.0 ? intra / all : 1.0;
}

static void add_term(const ac_cost_term *t, const ac_params *pr, const ac_cost_shape *s, double m,
                     double *f)
{
    double v = t->mult * quantity(t->q, pr, s, m);
    if (t->param == P_GAMMA) {
        f[AC_COST_GAMMA] += v;
        return;
    }
    if (t->param == P_OVERHEAD || t->param == P_MESSAGE) f[AC_COST_OVERHEAD] += v;
    if (t->param == P_OVERHEAD) return;
    int latency = t->param != P_BETA;
    int intra = latency ? AC_COST_ALPHA_INTRA : AC_COST_BETA_INTRA;
    int inter = latency ? AC_COST_ALPHA_INTER : AC_COST_BETA_INTER;
    ac_cost_link link = t->link;
    int tree = link == L_TREE;
    if (tree) {
        ac_tree_kind kind = pr ? pr->tree : AC_TREE_BINOMIAL;
        link = kind == AC_TREE_BINOMIAL || kind == AC_TREE_KNOMIAL ? L_SPLIT : L_WORST;
    }
    double share = link == L_INTRA   ? 1.0
                   : link == L_INTER ? 0.0
                   : link == L_SPLIT ? intra_share(s)
                   : link == L_MESH  ? mesh_intra_share(t->q, pr, s)
                   : s->nodes <= 1   ? 1.0
                   : link == L_ALL   ? (double)(s->ppn - 1) / (s->size - 1)
                                     : 0.0;
    /* the node's link carries the inter-node bytes of all its ranks at once (cost_terms.h),
     * and of every lane that runs beside this one */
    double crossing =
        !latency && !tree && s->nodes > 1 && (link == L_SPLIT || link == L_ALL || link == L_MESH)
            ? s->ppn
            : 1.0;
    if (!latency && s->lanes > 1) crossing *= s->lanes;
    f[intra] += share * v;
    f[inter] += (1.0 - share) * v * crossing;
}

static int features(ac_collective c, const ac_cost_model *model, const ac_params *pr,
                    const ac_cost_shape *s, double *f);

/* An inner collective `ic` of a composed algorithm, of model `model` (NULL: the library's, or
 * none) with `ipr` on the whole communicator with blocks of `block` bytes. */
static int inner_features(ac_collective ic, const ac_cost_model *model, const ac_params *ipr,
                          const ac_cost_shape *s, double block, double *f)
{
    if (!model) return -1; /* the library's collective */
    ac_cost_shape is = *s;
    is.bytes = call_bytes(ic, s->size, block);
    return features(ic, model, ipr, &is, f);
}

/* The phases of an orthogonal instance of collective c: its phase algorithm on each
 * dimension's lines, with the bytes `rule` gives each phase. A line of dimension d has n[d]
 * members `stride` ranks apart (the last dimension's are consecutive: coll/common/mesh.c), so
 * with the ranks in node blocks of s->ppn, ppn / stride of them share a node (at least one, at
 * most the line): a line of 32 ranks 2 apart at 8 ranks a node is 8 nodes of 4, and its
 * phase is priced on that shape (inside and between nodes), not as 32 nodes of one. */
static int phase_features(ac_collective c, ac_cost_phases rule, const ac_params *pr,
                          const ac_cost_shape *s, double m, double *f)
{
    int n[3];
    int dims = pr && pr->phase ? ac_mesh_layout(s->size, pr, n) : 0;
    if (dims == 0 || rule == PHASES_NONE) return -1;
    double run = m; /* PHASES_GROWING: the block of the phase, from the last dimension down */
    int stride = 1;
    for (int d = dims - 1; d >= 0; stride *= n[d], d--) {
        int per_node = s->nodes > 1 ? s->ppn / stride : n[d];
        per_node = per_node < 1 ? 1 : per_node > n[d] ? n[d] : per_node;
        /* every rank of a node is on some line: ppn / per_node lines share the node's link */
        int lines = s->nodes > 1 && s->ppn > per_node ? s->ppn / per_node : 1;
        ac_cost_shape ps = {.size = n[d],
                            .nodes = (n[d] + per_node - 1) / per_node,
                            .ppn = per_node,
                            .lanes = lines * (s->lanes > 1 ? s->lanes : 1)};
        double block = rule == PHASES_WHOLE    ? m
                       : rule == PHASES_BLOCKS ? m * s->size / n[d]
                                               : run;
        ps.bytes = rule == PHASES_WHOLE ? m : call_bytes(c, n[d], block);
        double pf[AC_COST_PARAMS];
        const ac_algorithm *priced = phase_priced(pr->phase, &ps);
        if (!priced || ac_cost_features(priced, &ps, pf) != 0) return -1;
        for (int j = 0; j < AC_COST_PARAMS; j++) f[j] += pf[j];
        run *= n[d];
    }
    return 0;
}

/* The phases of a hierarchical instance of collective c (hierarchical.c): its intra-node phases
 * on one node of the shape's largest ppn, one after the other for each of its k leaders, and its
 * inter-node phase on the leaders of the nodes, with the bytes the family's rules give them. */
static int hier_features(ac_collective c, const ac_params *pr, const ac_cost_shape *s, double *f)
{
    const ac_hier_family *fam = ac_hier_family_of(c);
    int k = pr && pr->leaders > 1 ? pr->leaders : 1;
    /* where it cannot run (AC_REQ_NODES): one node, or nodes smaller than two or its leaders */
    if (!fam || !pr || !pr->phase || s->nodes < 2 || s->ppn < (k > 2 ? k : 2)) return -1;
    const ac_algorithm *phase[3] = {pr->intra[0], pr->phase, pr->intra[1]};
    for (int ph = 0; ph < 3; ph++) {
        if (!phase[ph]) continue;
        int inter = ph == 1;
        ac_cost_shape ps = {.size = inter ? s->nodes : s->ppn,
                            .nodes = inter ? s->nodes : 1,
                            .ppn = inter ? 1 : s->ppn,
                            .lanes = inter ? k : 1}; /* k lanes cross at once */
        ps.bytes = s->bytes * ac_hier_scale(fam->bytes[ph], s->size, s->ppn, k);
        /* pipelined (HAN's): m segments among the leaders, the nodes' phase of the last one
         * (the others overlap the leaders' phase, the longer one between nodes) */
        double times = inter ? 1 : k;
        if (pr->segment > 0 && ps.bytes > pr->segment) {
            if (inter) times = ceil(ps.bytes / pr->segment);
            ps.bytes = pr->segment;
        }
        double pf[AC_COST_PARAMS];
        const ac_algorithm *priced = phase_priced(phase[ph], &ps);
        if (!priced || ac_cost_features(priced, &ps, pf) != 0) return -1;
        for (int j = 0; j < AC_COST_PARAMS; j++) f[j] += times * pf[j];
    }
    return 0;
}

/* Adds the features of an algorithm of collective c, of model `model` (NULL: none), with
 * parameters pr to f. */
static int features(ac_collective c, const ac_cost_model *model, const ac_params *pr,
                    const ac_cost_shape *s, double *f)
{
    if (!model) return -1;
    double m = unit_bytes(c, s);
    for (int i = 0; i < model->nterms; i++) add_term(&model->terms[i], pr, s, m, f);
    for (int i = 0; i < 2; i++) {
        const ac_cost_inner *in = &model->inner[i];
        double block = in->block == BLOCK_UNIT ? m : m / s->size;
        int rc = 0;
        switch (in->part) {
        case PART_NONE: break;
        case PART_ALLGATHERV:
            rc = inner_features(AC_ALLGATHERV, pr ? allgatherv_model(pr->allgatherv) : NULL,
                                pr ? pr->inner : NULL, s, block, f);
            break;
        case PART_ALLTOALLV:
            rc = inner_features(AC_ALLTOALLV, pr ? alltoallv_model(pr->alltoallv) : NULL,
                                pr ? pr->inner2 : NULL, s, block, f);
            break;
        case PART_PHASES: rc = phase_features(c, model->phases, pr, s, m, f); break;
        case PART_HIER: rc = hier_features(c, pr, s, f); break;
        case PART_LEADERS: {
            ac_cost_shape ls = {.size = s->nodes, .nodes = s->nodes, .ppn = 1, .lanes = 1};
            rc = inner_features(AC_ALLTOALLV, pr ? alltoallv_model(pr->alltoallv) : NULL,
                                pr ? pr->inner2 : NULL, &ls, block * s->ppn * s->ppn, f);
            break;
        }
        }
        if (rc != 0) return -1;
    }
    return 0;
}

int ac_cost_features(const ac_algorithm *alg, const ac_cost_shape *shape, double *f)
{
    double sum[AC_COST_PARAMS] = {0};
    int rc = shape->size >= 1
                 ? features(alg->collective, alg->cost, alg->params, shape, sum)
                 : -1;
    for (int j = 0; j < AC_COST_PARAMS; j++) f[j] = rc == 0 ? sum[j] : 0.0;
    return rc;
}

double ac_cost_time(const ac_algorithm *alg, const ac_cost_shape *shape, const double *params)
{
    double f[AC_COST_PARAMS], t = 0.0;
    if (ac_cost_features(alg, shape, f) != 0) return -1.0;
    for (int j = 0; j < AC_COST_PARAMS; j++) t += f[j] * params[j];
    return t;
}

/* Least squares on the columns in `mask` of the k x AC_COST_PARAMS system a x = b, by the
 * normal equations with every column scaled to unit norm (the parameters differ by orders of
 * magnitude). Returns 0 with x (zero outside the mask), -1 when the columns are dependent. */
static int solve_subset(const double *a, const double *b, int k, unsigned mask, double *x)
{
    enum { N = AC_COST_PARAMS };
    int cols[N], n = 0;
    double scale[N], g[N][N + 1];
    for (int j = 0; j < N; j++)
        if (mask & (1u << j)) cols[n++] = j;
    for (int u = 0; u < n; u++) {
        double s = 0.0;
        for (int i = 0; i < k; i++) s += a[i * N + cols[u]] * a[i * N + cols[u]];
        if (!(s > 0.0)) return -1;
        scale[u] = 1.0 / sqrt(s);
    }
    for (int u = 0; u < n; u++) {
        for (int v = 0; v <= n; v++) {
            double s = 0.0;
            for (int i = 0; i < k; i++)
                s += a[i * N + cols[u]] * (v < n ? a[i * N + cols[v]] * scale[v] : b[i]);
            g[u][v] = s * scale[u];
        }
    }
    /* Gaussian elimination with partial pivoting */
    for (int u = 0; u < n; u++) {
        int piv = u;
        for (int v = u + 1; v < n; v++)
            if (fabs(g[v][u]) > fabs(g[piv][u])) piv = v;
        if (fabs(g[piv][u]) < 1e-10) return -1;
        for (int v = 0; v <= n; v++) {
            double t = g[u][v];
            g[u][v] = g[piv][v];
            g[piv][v] = t;
        }
        for (int v = u + 1; v < n; v++) {
            double r = g[v][u] / g[u][u];
            for (int w = u; w <= n; w++) g[v][w] -= r * g[u][w];
        }
    }
    memset(x, 0, N * sizeof *x);
    for (int u = n - 1; u >= 0; u--) {
        double s = g[u][n];
        for (int v = u + 1; v < n; v++) s -= g[u][v] * x[cols[v]] / scale[v];
        x[cols[u]] = s / g[u][u] * scale[u];
    }
    return 0;
}

int ac_cost_fit(const double *rows_in, const double *seconds, int k, const double *prior,
                double prior_weight, double *out)
{
    enum { N = AC_COST_PARAMS, MAX_ROWS = 256 };
    double a[(MAX_ROWS + N) * N], b[MAX_ROWS + N];
    int m = 0;
    /* the most recent MAX_ROWS observations, each row relative to its time */
    for (int i = k > MAX_ROWS ? k - MAX_ROWS : 0; i < k; i++) {
        if (!(seconds[i] > 0.0)) continue;
        for (int j = 0; j < N; j++) a[m * N + j] = rows_in[i * N + j] / seconds[i];
        b[m++] = 1.0;
    }
    if (prior && prior_weight > 0.0)
        for (int j = 0; j < N; j++) {
            if (!(prior[j] > 0.0)) continue;
            for (int u = 0; u < N; u++) a[m * N + u] = u == j ? prior_weight / prior[j] : 0.0;
            b[m++] = prior_weight;
        }
    if (m == 0) return -1;
    double best = -1.0, x[N];
    for (unsigned mask = 0; mask < (1u << N); mask++) {
        if (solve_subset(a, b, m, mask, x) != 0) continue;
        int feasible = 1;
        for (int j = 0; j < N; j++) feasible &= x[j] >= 0.0;
        if (!feasible) continue;
        double r = 0.0;
        for (int i = 0; i < m; i++) {
            double e = -b[i];
            for (int j = 0; j < N; j++) e += a[i * N + j] * x[j];
            r += e * e;
        }
        if (best < 0.0 || r < best * (1.0 - 1e-12)) {
            best = r;
            memcpy(out, x, sizeof x);
        }
    }
    return best < 0.0 ? -1 : 0;
}
