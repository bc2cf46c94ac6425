/*
 * history.c - the run's history (see history.h): what selection and its clients keep in the
 * keyed record store (core/store.h) between runs, loaded and stored collectively.
 *
 * Its kinds of record line (the file's format is the store's):
 *
 *   context <collective> <comm size> <bytes> <count> <op builtin> <op commutative>
 *           <site, 16 hex digits> <n> then n times: <algorithm> <seconds> <variance> <samples>
 *   <record> <n> then n times: <name> <value> <variance> <samples>
 *
 * (a context is one line) and those its clients declare (ac_history_declare), e.g. an ADCL
 * request's `adcl <request key> <n> ...` (src/adcl/history.c). A record line (at most one of a
 * tag a section) is what a strategy learned beyond its contexts, under the kind its ops name
 * (strategy.h: `record`; the `model` strategy's is its cost models' parameters, each with the
 * evidence behind it as its samples), merged like a context's candidates.
 */
#include "select/history.h"
#include "core/config.h"
#include "core/log.h"
#include "core/safefile.h"
#include "core/state.h"
#include "core/textfile.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if AUTOCOLL_SIMULATED
#include <simgrid/host.h>
#endif

#define DESCRIPTION_LEN 2048
#define MAX_DECLARED 8 /* kinds the clients declare */

/* ---- the kinds of record ------------------------------------------------------------------ */

/* A context's key: its collective by name, five integers and its site in 16 hex digits. */
static int context_key_text(const ac_history_key *k, char *key, size_t size)
{
    int n = snprintf(key, size, "%s %d %llu %d %d %d %016llx",
                     ac_collective_name(k->collective), k->comm_size, k->bytes, k->count,
                     k->op_builtin, k->op_commutative, (unsigned long long)k->site);
    return n >= 0 && (size_t)n < size ? 0 : -1;
}

static int context_key(char *const *t, char *key, size_t size)
{
    ac_history_key k;
    long v[5];
    static const long lo[5] = {1, 0, 0, 0, 0};
    static const long hi[5] = {INT_MAX, LONG_MAX, INT_MAX, 1, 1};
    if ((k.collective = ac_collective_from_name(t[0])) < 0) return -1;
    for (int i = 0; i < 5; i++)
        if (ac_store_parse_long(t[1 + i], lo[i], hi[i], &v[i])) return -1;
    k.comm_size = (int)v[0];
    k.bytes = (unsigned long long)v[1];
    k.count = (int)v[2];
    k.op_builtin = (int)v[3];
    k.op_commutative = (int)v[4];
    if (ac_store_parse_hex64(t[6], &k.site)) return -1;
    return context_key_text(&k, key, size);
}

static const ac_store_kind context_kind = {"context", 7, context_key};

static struct {
    const ac_store_kind *kind[MAX_DECLARED];
    int n;
} declared;

void ac_history_declare(const ac_store_kind *kind)
{
    for (int i = 0; i < declared.n; i++)
        if (declared.kind[i] == kind) return;
    if (declared.n < MAX_DECLARED) declared.kind[declared.n++] = kind;
}

enum { MAX_KINDS = 1 + MAX_DECLARED + 16 }; /* contexts, declared, the strategies' records */

/* Every kind the file holds, into kinds[MAX_KINDS]: contexts, the strategies' records, the
 * kinds declared. Returns how many. */
static int kinds_of(const ac_store_kind **kinds)
{
    int n = 0, count;
    const ac_strategy *const *all = ac_strategies(&count);
    kinds[n++] = &context_kind;
    for (int i = 0; i < count && n < MAX_KINDS - MAX_DECLARED; i++)
        if (all[i]->record) kinds[n++] = all[i]->record;
    for (int i = 0; i < declared.n; i++) kinds[n++] = declared.kind[i];
    return n;
}

void ac_history_write_context(FILE *f, const ac_history_key *key,
                              const ac_algorithm *const *candidates, int n,
                              const ac_knowledge *know)
{
    char text[AC_STORE_KEY_MAX];
    const char *small[64] = {NULL}, **names = n <= 64 ? small : malloc(sizeof *names * (size_t)n);
    if (!names) return;
    for (int i = 0; i < n; i++) names[i] = candidates[i]->name;
    if (context_key_text(key, text, sizeof text) == 0)
        ac_store_write(f, &context_kind, text, names, n, know);
    if (names != small) free(names);
}

void ac_history_write_record(FILE *f, const ac_store_kind *kind, const char *key,
                             const char *const *names, int n, const ac_knowledge *know)
{
    ac_store_write(f, kind, key, names, n, know);
}

int ac_history_parse(const char *text, uint64_t fingerprint, char **section, char *why,
                     size_t why_len)
{
    const ac_store_kind *kinds[MAX_KINDS];
    return ac_store_section(text, fingerprint, kinds, kinds_of(kinds), section, why, why_len);
}

int ac_history_merge_file(const char *path, uint64_t fingerprint, const char *description,
                          const char *contexts, char *why, size_t why_len)
{
    const ac_store_kind *kinds[MAX_KINDS];
    return ac_store_merge_file(path, fingerprint, description, contexts, kinds, kinds_of(kinds),
                               why, why_len);
}

/* ---- the run's history: MPI ---------------------------------------------------------------- */

static struct {
    int on;                         /* every rank: load and store happen */
    int writable;                   /* rank 0: the file may be written at the end */
    char path[PATH_MAX];            /* rank 0's path; "" elsewhere */
    int default_path;               /* AUTOCOLL_HISTORY=auto */
    uint64_t fingerprint;           /* rank 0 */
    char description[DESCRIPTION_LEN];
    ac_store_records *known;        /* every rank: this platform's records */
    char *kept;                     /* lines handed over before the end (ac_history_keep),
                                     * records of one key merged */
    size_t kept_len;
    MPI_Comm comm;                  /* private duplicate of MPI_COMM_WORLD */
} h = {.comm = MPI_COMM_NULL};

const char *ac_history_path(void)
{
    return h.on ? h.path : NULL;
}

static uint64_t fnv1a(uint64_t hash, const char *s)
{
    for (; *s; s++) hash = (hash ^ (unsigned char)*s) * 1099511628211ull;
    return hash;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* The host name with every run of digits masked as one '#' (node017 -> node#), into out. */
static void host_stem(const char *name, char *out, size_t size)
{
    size_t n = 0;
    for (const char *c = name; *c && n + 1 < size; c++) {
        if (isdigit((unsigned char)*c)) {
            if (n == 0 || out[n - 1] != '#') out[n++] = '#';
        } else {
            out[n++] = *c;
        }
    }
    out[n] = '\0';
}

uint64_t ac_history_platform(const char *hosts, int np, const char *network,
                             const char *library, char *description, size_t len)
{
    const size_t width = MPI_MAX_PROCESSOR_NAME;
    char *sorted = malloc((size_t)np * width), *stems = malloc((size_t)np * width);
    int nodes = 0, ppn = 0, nstems = 0;
    uint64_t hash = 14695981039346656037ull;
    if (!sorted || !stems) {
        free(sorted);
        free(stems);
        snprintf(description, len, "np=%d (out of memory for the host names)", np);
        return fnv1a(hash, description);
    }
    memcpy(sorted, hosts, (size_t)np * width);
    qsort(sorted, (size_t)np, width, cmp_name);
    for (int i = 0, run = 0; i < np; i++) {
        const char *name = sorted + (size_t)i * width;
        int first = i == 0 || strcmp(name, name - width) != 0;
        run = first ? 1 : run + 1;
        if (run > ppn) ppn = run;
        if (!first) continue;
        nodes++;
        host_stem(name, stems + (size_t)nstems++ * width, width);
    }
    int auto_network = strcmp(network, "auto") == 0;
    int used = snprintf(description, len, "np=%d nodes=%d ppn=%d registry=%016lx mpi=\"%s\" network=",
                        np, nodes, ppn, ac_registry_fingerprint(), library);
    if (!auto_network) {
        snprintf(description + used, len - (size_t)used, "%s", network);
    } else {
        /* the distinct stems, the first 8 shown; the hash covers them all */
        qsort(stems, (size_t)nstems, width, cmp_name);
        for (int i = 0, shown = 0; i < nstems; i++) {
            const char *stem = stems + (size_t)i * width;
            if (i > 0 && strcmp(stem, stem - width) == 0) continue;
            hash = fnv1a(fnv1a(hash, stem), ",");
            if (shown <= 8 && used < (int)len - 1)
                used += snprintf(description + used, len - (size_t)used, "%s%s",
                                 shown ? "," : "", shown < 8 ? stem : "...");
            shown++;
        }
    }
    for (char *p = description; *p; p++)
        if (*p == '\n' || *p == '\r') *p = ' ';
    free(sorted);
    free(stems);
    return fnv1a(hash, description);
}

/* Rank 0: the path of the setting ("" and a reason when there is none). */
static void resolve_path(const char *setting, char *why, size_t why_len)
{
    h.default_path = strcmp(setting, "auto") == 0;
    if (!h.default_path) {
        snprintf(h.path, sizeof h.path, "%s", setting);
        return;
    }
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && xdg[0] == '/')
        snprintf(h.path, sizeof h.path, "%s/autocoll/history", xdg);
    else if (home && home[0] == '/')
        snprintf(h.path, sizeof h.path, "%s/.cache/autocoll/history", home);
    else
        snprintf(why, why_len, "neither XDG_CACHE_HOME nor HOME is set");
}

/* Rank 0: the records of this platform's section of the file, or NULL; reports what is wrong
 * once. (The default location's directory is made at the end, so it is not checked here.) */
static ac_store_records *load_section(void)
{
    char why[PATH_MAX + 256] = "", unwritable[PATH_MAX + 256] = "";
    ac_store_records *section = NULL;
    if (!h.default_path &&
        ac_file_check_writable(h.path, unwritable, sizeof unwritable) != 0) {
        h.writable = 0;
        if (access(h.path, R_OK) != 0) {
            ac_log_warn("history %s: cannot be read or created (%s); no history for this run",
                        h.path, unwritable);
            return NULL;
        }
    }
    char *text = ac_read_text_file(h.path, AC_STORE_MAX_FILE_BYTES);
    if (!text) {
        if (errno == ENOENT && h.default_path) {
            ac_log_info("history %s: not found; starting cold (it is written at MPI_Finalize)",
                        h.path);
        } else if (errno == ENOENT) {
            ac_log_warn("history %s: not found; starting cold (it is written at MPI_Finalize)",
                        h.path);
        } else {
            ac_log_warn("history %s: cannot read it (%s); starting cold, and it will not be "
                        "written",
                        h.path, ac_file_error(errno));
            h.writable = 0;
        }
        return NULL;
    }
    if (unwritable[0]) /* said once: a file that cannot be read was reported above */
        ac_log_warn("history %s: cannot be updated (%s); the file is read but will not be "
                    "updated",
                    h.path, unwritable);
    const ac_store_kind *kinds[MAX_KINDS];
    int n = ac_store_load(text, h.fingerprint, kinds, kinds_of(kinds), &section, why, sizeof why);
    free(text);
    if (n < 0) {
        ac_log_warn("history %s: not an autocoll history file of this version (%s); ignored "
                    "and left as it is (remove it to start a new one)",
                    h.path, why);
        h.writable = 0;
    } else if (!section) {
        ac_log_warn("history %s: nothing for this platform (%016llx: %s; the file has %d "
                    "other%s); starting cold, and this run's knowledge will be added",
                    h.path, (unsigned long long)h.fingerprint, h.description, n,
                    n == 1 ? "" : "s");
    } else {
        ac_log_info("history %s: loaded the platform %016llx", h.path,
                    (unsigned long long)h.fingerprint);
    }
    return section;
}

void ac_history_load(void)
{
    const char *setting = ac_config_get("AUTOCOLL_HISTORY");
    int rank = 0, np = 1;
    ac_store_records_free(h.known);
    h.known = NULL;
    h.on = strcmp(setting, "off") != 0;
    if (!h.on) return;
    /* From here on collective over MPI_COMM_WORLD on every rank (the setting is the same). */
    if (PMPI_Comm_dup(MPI_COMM_WORLD, &h.comm) != MPI_SUCCESS) {
        h.on = 0;
        return;
    }
    PMPI_Comm_rank(h.comm, &rank);
    PMPI_Comm_size(h.comm, &np);
    char name[MPI_MAX_PROCESSOR_NAME] = "", *hosts = NULL;
    int len = 0;
    PMPI_Get_processor_name(name, &len);
#if AUTOCOLL_SIMULATED
    /* a simulated node built out of one host a rank (platforms/node_overheads.cpp) names its
     * hosts NODE.coreI: the node's name is what tells its ranks together */
    const char *node_name = sg_host_get_property_value(sg_host_self(), "autocoll/node-name");
    if (node_name) snprintf(name, sizeof name, "%s", node_name);
#endif
    if (rank == 0 && !(hosts = calloc((size_t)np, MPI_MAX_PROCESSOR_NAME))) {
        ac_log_error("history: out of memory for %d host names", np);
        ac_log_abort(MPI_ERR_NO_MEM); /* as select.c does: fail loudly */
    }
    PMPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, hosts, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                0, h.comm);
    ac_store_records *mine = NULL; /* rank 0: what it read */
    char *bytes = NULL;
    long size[2] = {0, 1}; /* bytes of the records, history on */
    const ac_store_kind *kinds[MAX_KINDS];
    int nkinds = kinds_of(kinds);
    if (rank == 0) {
        char why[256] = "";
        char library[256];
        ac_mpi_library(library, sizeof library);
        h.fingerprint = ac_history_platform(hosts, np, ac_config_name("AUTOCOLL_PLATFORM"),
                                            library, h.description, sizeof h.description);
        resolve_path(setting, why, sizeof why);
        if (!h.path[0]) {
            ac_log_warn("history: %s; no history for this run (set AUTOCOLL_HISTORY=<path>)",
                        why);
            size[1] = 0;
        } else {
            h.writable = 1;
            mine = load_section();
            size[0] = mine ? (long)ac_store_pack(mine, kinds, nkinds, &bytes) : 0;
        }
    }
    free(hosts);
    PMPI_Bcast(size, 2, MPI_LONG, 0, h.comm);
    h.on = size[1] != 0;
    /* Rank 0 parsed the file once; the others take its records as bytes (parsing the text
     * again on every rank doubled the time a large file kept MPI_Init busy; the kinds are
     * declared alike on every rank). Every rank keeps them only if every rank has them: the
     * same knowledge everywhere (invariant 1). */
    int all = 0;
    if (size[0] > 0 && size[0] < INT_MAX) {
        if (rank != 0) bytes = malloc((size_t)size[0]);
        int ok = bytes != NULL;
        PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, h.comm);
        if (all) {
            PMPI_Bcast(bytes, (int)size[0], MPI_CHAR, 0, h.comm);
            ok = rank == 0 ||
                 ac_store_unpack(bytes, (size_t)size[0], kinds, nkinds, &h.known) == 0;
            PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, h.comm);
        }
    }
    if (all && rank == 0) {
        h.known = mine;
        mine = NULL;
    } else if (!all) {
        ac_store_records_free(h.known);
        h.known = NULL;
    }
    ac_store_records_free(mine);
    free(bytes);
    if (!h.on) PMPI_Comm_free(&h.comm);
}

int ac_history_lookup(const ac_history_key *key, const ac_algorithm *const *candidates, int n,
                      ac_knowledge *know)
{
    char text[AC_STORE_KEY_MAX] = "";
    const char *small[64] = {NULL}, **names = n <= 64 ? small : malloc(sizeof *names * (size_t)n);
    int known = 0;
    if (!names) {
        memset(know, 0, sizeof *know * (size_t)n);
        return 0;
    }
    for (int i = 0; i < n; i++) names[i] = candidates[i]->name;
    context_key_text(key, text, sizeof text);
    known = ac_store_lookup(h.on ? h.known : NULL, &context_kind, text, names, n, know);
    if (names != small) free(names);
    return known;
}

int ac_history_lookup_record(const ac_store_kind *kind, const char *key,
                             const char *const *names, int n, ac_knowledge *know)
{
    return ac_store_lookup(h.on ? h.known : NULL, kind, key, names, n, know);
}

void ac_history_keep(const char *lines)
{
    const ac_store_kind *kinds[MAX_KINDS];
    size_t n = strlen(lines);
    char *grown = h.on && n ? realloc(h.kept, h.kept_len + n + 1) : NULL;
    if (!grown) return; /* off, nothing, or out of memory: this knowledge is not kept */
    memcpy(grown + h.kept_len, lines, n + 1);
    /* Records of one key merged now, as the file's merge would: what is kept grows with the
     * keys, not with the communicators or requests released. */
    char *merged = ac_store_merged(grown, kinds, kinds_of(kinds));
    if (merged) {
        free(grown);
        grown = merged;
    }
    h.kept = grown;
    h.kept_len = strlen(grown);
}

/* mkdir -p of path's directory (the default location's). */
static void make_parent(const char *path)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) return;
    *slash = '\0';
    for (char *p = dir + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(dir, 0755);
            *p = '/';
        }
    mkdir(dir, 0755);
}

void ac_history_store(const char *contexts, size_t contexts_len)
{
    if (!h.on) return;
    /* this rank's lines: those kept (ADCL requests released earlier), then the contexts' */
    const char *mine = contexts;
    size_t mine_len = contexts ? contexts_len : 0;
    char *joined = NULL;
    if (h.kept_len && (joined = malloc(h.kept_len + mine_len + 1))) {
        memcpy(joined, h.kept, h.kept_len);
        if (mine_len) memcpy(joined + h.kept_len, contexts, mine_len);
        joined[h.kept_len + mine_len] = '\0';
        mine = joined;
        mine_len += h.kept_len;
    }
    int rank = 0, np = 1;
    PMPI_Comm_rank(h.comm, &rank);
    PMPI_Comm_size(h.comm, &np);
    int len = mine && mine_len < INT_MAX / (size_t)np ? (int)mine_len : 0;
    int *lens = rank == 0 ? calloc((size_t)np, sizeof *lens) : NULL,
        *displs = rank == 0 ? calloc((size_t)np, sizeof *displs) : NULL;
    PMPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, h.comm);
    long total = 0;
    if (rank == 0 && lens && displs)
        for (int i = 0; i < np; i++) {
            displs[i] = (int)total;
            total += lens[i];
        }
    char *all = rank == 0 ? malloc((size_t)total + 1) : NULL;
    int ok = rank != 0 || (lens && displs && all && total < INT_MAX);
    PMPI_Bcast(&ok, 1, MPI_INT, 0, h.comm);
    if (ok) PMPI_Gatherv(mine, len, MPI_CHAR, all, lens, displs, MPI_CHAR, 0, h.comm);
    if (rank == 0 && !ok) ac_log_error("history %s: out of memory; not written", h.path);
    if (rank == 0 && ok && h.writable && total > 0) {
        char why[PATH_MAX + 256] = "";
        all[total] = '\0';
        if (h.default_path) make_parent(h.path);
        if (ac_history_merge_file(h.path, h.fingerprint, h.description, all, why, sizeof why))
            ac_log_warn("history %s: not written (%s)", h.path, why);
        else
            ac_log_info("history %s: written", h.path);
    }
    free(all);
    free(lens);
    free(displs);
    free(joined);
    free(h.kept);
    h.kept = NULL;
    h.kept_len = 0;
    ac_store_records_free(h.known);
    h.known = NULL;
    PMPI_Comm_free(&h.comm);
    h.on = 0;
}
