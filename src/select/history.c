/*
 * history.c - the history file: learned state kept between runs (see history.h).
 *
 * The file is text, one record a line, so that a person can read it and a partial write is
 * easy to detect:
 *
 *   autocoll-history 1
 *   # comments and blank lines are ignored
 *   platform <fingerprint, 16 hex digits> <description: np=.. nodes=.. ppn=.. mpi=.. ...>
 *   context <collective> <comm size> <bytes> <count> <op builtin> <op commutative>
 *           <site, 16 hex digits> <n> then n times: <algorithm> <seconds> <variance> <samples>
 *   adcl <request key> <n> then n times: <function> <seconds> <variance> <samples>
 *   <record> <n> then n times: <name> <value> <variance> <samples>
 *
 * (a context is one line). An adcl line is an ADCL request's knowledge (src/adcl/history.c
 * builds its key: one token of printable characters naming the function set, topology and
 * vector); it is matched by the key's text, its functions by name, and merged like a context.
 * A record line (at most one of each record a section) is what a strategy learned beyond its
 * contexts, under the tag its ops name (strategy.h: `record`; the `model` strategy's is its
 * cost models' parameters, each with the evidence behind it as its samples), merged like a
 * context's candidates; the file accepts the tags of the strategies that have one.
 * Context, adcl and record lines belong to the platform line above them. Anything
 * else, a second header, a context before any platform line or a number that does not parse
 * makes the whole file corrupt: it is reported, ignored, and never overwritten (it may not be
 * ours). A header with another format number is treated the same way.
 *
 * Merging. Two records of one context (the file's and this job's, or two communicators' of one
 * job) are merged candidate by candidate, matched by name: seconds and variance become the mean
 * of the two weighted by min(samples, WEIGHT_CAP), samples add up. The cap keeps a long history
 * from outweighing what a new run measured: after a change of the platform the file follows
 * within a few runs. Candidates only one record knows are kept as they are.
 *
 * Concurrency. A writer takes an exclusive fcntl() lock on "<path>.lock" (a lock on the file
 * itself would be lost by the rename), waiting up to LOCK_SECONDS; then it reads the file as
 * it is now, merges, writes "<path>.tmp.<host>.<pid>", fsyncs it and renames it over the path.
 * Readers never lock: rename is atomic, so they see the old file or the new one, whole.
 */
#include "select/history.h"
#include "core/config.h"
#include "core/log.h"
#include "core/state.h"
#include "core/textfile.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define HEADER "autocoll-history"
#define FORMAT 1
#define NAME_MAX_LEN 64                /* algorithm names are shorter */
#define MAX_CANDIDATES 4096            /* per context line */
#define MAX_FILE_BYTES (64L << 20)     /* a larger file is not read */
#define WEIGHT_CAP 64                  /* samples that count in a merge (see above) */
#define LOCK_SECONDS 30                /* the longest wait for another writer */
#define DESCRIPTION_LEN 2048
#define ADCL_LINE "adcl"

/* What a line records. */
enum { CONTEXT_ENTRY, ADCL_ENTRY, RECORD_ENTRY };

typedef struct hcand {
    char name[NAME_MAX_LEN];
    double seconds, var;
    long samples;
} hcand;

typedef struct hentry {
    int kind;   /* CONTEXT_ENTRY, ADCL_ENTRY or RECORD_ENTRY */
    ac_history_key key; /* a context's */
    char *adcl; /* an ADCL request's key, a record's tag; NULL for a context */
    int n;
    hcand *cand;
} hentry;

typedef struct hlist {
    hentry *e;
    int n, cap;
} hlist;

typedef struct hsection {
    uint64_t fingerprint;
    char *description;
    hlist contexts;
} hsection;

typedef struct hfile {
    hsection *s;
    int n, cap;
} hfile;

/* ---- records ----------------------------------------------------------------------------- */

static void list_free(hlist *l)
{
    for (int i = 0; i < l->n; i++) {
        free(l->e[i].cand);
        free(l->e[i].adcl);
    }
    free(l->e);
    memset(l, 0, sizeof *l);
}

static void file_free(hfile *f)
{
    for (int i = 0; i < f->n; i++) {
        free(f->s[i].description);
        list_free(&f->s[i].contexts);
    }
    free(f->s);
    memset(f, 0, sizeof *f);
}

static int key_equal(const ac_history_key *a, const ac_history_key *b)
{
    return a->collective == b->collective && a->comm_size == b->comm_size &&
           a->bytes == b->bytes && a->count == b->count && a->op_builtin == b->op_builtin &&
           a->op_commutative == b->op_commutative && a->site == b->site;
}

/* The entry of `kind` with a context's key, an ADCL request's key or a record's tag (adcl),
 * or NULL. */
static hentry *list_find(hlist *l, int kind, const ac_history_key *key, const char *adcl)
{
    for (int i = 0; i < l->n; i++) {
        const hentry *e = &l->e[i];
        if (e->kind == kind &&
            (kind == CONTEXT_ENTRY ? key_equal(&e->key, key) : strcmp(e->adcl, adcl) == 0))
            return &l->e[i];
    }
    return NULL;
}

static long weight(long samples)
{
    return samples < WEIGHT_CAP ? samples : WEIGHT_CAP;
}

/* Merge src's candidates into dst (see the header comment). -1 on no memory. */
static int entry_merge(hentry *dst, const hentry *src)
{
    for (int i = 0; i < src->n; i++) {
        const hcand *s = &src->cand[i];
        hcand *d = NULL;
        for (int j = 0; j < dst->n && !d; j++)
            if (strcmp(dst->cand[j].name, s->name) == 0) d = &dst->cand[j];
        if (!d) {
            hcand *grown = realloc(dst->cand, sizeof *grown * (size_t)(dst->n + 1));
            if (!grown) return -1;
            dst->cand = grown;
            dst->cand[dst->n++] = *s;
            continue;
        }
        double wd = (double)weight(d->samples), ws = (double)weight(s->samples);
        if (wd + ws > 0.0) {
            d->seconds = (d->seconds * wd + s->seconds * ws) / (wd + ws);
            d->var = (d->var * wd + s->var * ws) / (wd + ws);
        }
        d->samples = d->samples > LONG_MAX / 2 - s->samples ? LONG_MAX / 2
                                                              : d->samples + s->samples;
    }
    return 0;
}

/* Add e to l, merging with a record of the same key. Takes e's candidates. -1 on no memory. */
static int list_add(hlist *l, hentry *e)
{
    hentry *old = list_find(l, e->kind, &e->key, e->adcl);
    if (old) {
        int rc = entry_merge(old, e);
        free(e->cand);
        free(e->adcl);
        e->cand = NULL;
        e->adcl = NULL;
        return rc;
    }
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        hentry *grown = realloc(l->e, sizeof *grown * (size_t)cap);
        if (!grown) {
            free(e->cand);
            free(e->adcl);
            return -1;
        }
        l->e = grown;
        l->cap = cap;
    }
    l->e[l->n++] = *e;
    e->cand = NULL;
    e->adcl = NULL;
    return 0;
}

/* ---- the text format --------------------------------------------------------------------- */

static int parse_long(const char *t, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(t, &end, 10);
    if (errno || end == t || *end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

static int parse_hex64(const char *t, uint64_t *out)
{
    char *end;
    errno = 0;
    if (strlen(t) != 16) return -1;
    unsigned long long v = strtoull(t, &end, 16);
    if (errno || *end) return -1;
    *out = (uint64_t)v;
    return 0;
}

static int parse_time(const char *t, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(t, &end);
    if (errno || end == t || *end || !isfinite(v) || v < 0.0) return -1;
    *out = v;
    return 0;
}

static int valid_name(const char *t)
{
    size_t n = strlen(t);
    if (n == 0 || n >= NAME_MAX_LEN) return 0;
    for (; *t; t++)
        if (!((*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z') || (*t >= '0' && *t <= '9') ||
              *t == '_' || *t == '-' || *t == '.'))
            return 0;
    return 1;
}

/* The next space-separated token of *p (NUL-terminated in place), or NULL. */
static char *token(char **p)
{
    char *s = *p;
    while (*s == ' ' || *s == '\t') s++;
    if (!*s) return NULL;
    char *t = s;
    while (*s && *s != ' ' && *s != '\t') s++;
    if (*s) *s++ = '\0';
    *p = s;
    return t;
}

/* A context line after "context", in place; 0, or -1 (not valid). */
static int parse_candidates(char *rest, hentry *out);

static int parse_context(char *rest, hentry *out)
{
    long v[6];
    char *t;
    memset(out, 0, sizeof *out);
    if (!(t = token(&rest)) || (out->key.collective = ac_collective_from_name(t)) < 0) return -1;
    static const long lo[6] = {1, 0, 0, 0, 0, 0};
    static const long hi[6] = {INT_MAX, LONG_MAX, INT_MAX, 1, 1, 0};
    for (int i = 0; i < 5; i++)
        if (!(t = token(&rest)) || parse_long(t, lo[i], hi[i], &v[i])) return -1;
    out->key.comm_size = (int)v[0];
    out->key.bytes = (unsigned long long)v[1];
    out->key.count = (int)v[2];
    out->key.op_builtin = (int)v[3];
    out->key.op_commutative = (int)v[4];
    if (!(t = token(&rest)) || parse_hex64(t, &out->key.site)) return -1;
    return parse_candidates(rest, out);
}

/* The rest of a context or adcl line: <n> and n candidates, into out->cand (which it owns on
 * success); 0, or -1 (not valid). */
static int parse_candidates(char *rest, hentry *out)
{
    long n;
    char *t;
    if (!(t = token(&rest)) || parse_long(t, 1, MAX_CANDIDATES, &n)) return -1;
    out->cand = calloc((size_t)n, sizeof *out->cand);
    if (!out->cand) return -1;
    for (int i = 0; i < n; i++) {
        hcand *c = &out->cand[i];
        long samples;
        if (!(t = token(&rest)) || !valid_name(t)) goto bad;
        strcpy(c->name, t);
        if (!(t = token(&rest)) || parse_time(t, &c->seconds)) goto bad;
        if (!(t = token(&rest)) || parse_time(t, &c->var)) goto bad;
        if (!(t = token(&rest)) || parse_long(t, 1, LONG_MAX, &samples)) goto bad;
        c->samples = samples;
        for (int j = 0; j < i; j++)
            if (strcmp(out->cand[j].name, c->name) == 0) goto bad;
    }
    if (token(&rest)) goto bad;
    out->n = (int)n;
    return 0;
bad:
    free(out->cand);
    out->cand = NULL;
    return -1;
}

/* Whether t is an ADCL request key: 1 to AC_HISTORY_KEY_MAX - 1 printable characters, no
 * blank. */
static int valid_key(const char *t)
{
    size_t n = strlen(t);
    if (n == 0 || n >= AC_HISTORY_KEY_MAX) return 0;
    for (; *t; t++)
        if (!isgraph((unsigned char)*t)) return 0;
    return 1;
}

/* An adcl line after "adcl", in place; 0, or -1 (not valid). */
static int parse_adcl(char *rest, hentry *out)
{
    char *t;
    memset(out, 0, sizeof *out);
    out->kind = ADCL_ENTRY;
    if (!(t = token(&rest)) || !valid_key(t) || !(out->adcl = strdup(t))) return -1;
    if (parse_candidates(rest, out) == 0) return 0;
    free(out->adcl);
    out->adcl = NULL;
    return -1;
}

/* Whether `kind` is the tag of a strategy's record (strategy.h). */
static int is_record(const char *kind)
{
    int n;
    const ac_strategy *const *all = ac_strategies(&n);
    for (int i = 0; i < n; i++)
        if (all[i]->record && strcmp(all[i]->record, kind) == 0) return 1;
    return 0;
}

/* A record line after its tag `kind`, in place; 0, or -1 (not valid). */
static int parse_record(const char *kind, char *rest, hentry *out)
{
    memset(out, 0, sizeof *out);
    out->kind = RECORD_ENTRY;
    if (!(out->adcl = strdup(kind))) return -1;
    if (parse_candidates(rest, out) == 0) return 0;
    free(out->adcl);
    out->adcl = NULL;
    return -1;
}

/* Parse text (a whole file when `whole`, else context lines only, into one section). */
static int parse_text(const char *text, int whole, hfile *out, char *why, size_t why_len)
{
    memset(out, 0, sizeof *out);
    char *copy = strdup(text ? text : "");
    if (!copy) {
        ac_why_printf(why, why_len, "out of memory");
        return -1;
    }
    int header = !whole;
    long line = 0;
    if (!whole) {
        out->s = calloc(1, sizeof *out->s);
        if (!out->s) goto nomem;
        out->n = out->cap = 1;
    }
    for (char *p = copy, *next; p && *p; p = next) {
        next = strchr(p, '\n');
        if (next) *next++ = '\0';
        line++;
        char *rest = p, *kind = token(&rest);
        if (!kind || kind[0] == '#') continue;
        if (!header) {
            long format;
            char *v = token(&rest);
            if (strcmp(kind, HEADER) != 0 || !v || parse_long(v, 0, INT_MAX, &format) ||
                token(&rest)) {
                ac_why_printf(why, why_len, "line %ld is not an autocoll history header", line);
                goto fail;
            }
            if (format != FORMAT) {
                ac_why_printf(why, why_len, "format %ld, this version reads %d", format, FORMAT);
                goto fail;
            }
            header = 1;
        } else if (whole && strcmp(kind, "platform") == 0) {
            char *fp = token(&rest);
            uint64_t f;
            if (!fp || parse_hex64(fp, &f)) {
                ac_why_printf(why, why_len, "line %ld: a bad platform line", line);
                goto fail;
            }
            if (out->n == out->cap) {
                int cap = out->cap ? 2 * out->cap : 4;
                hsection *grown = realloc(out->s, sizeof *grown * (size_t)cap);
                if (!grown) goto nomem;
                out->s = grown;
                out->cap = cap;
            }
            hsection *s = &out->s[out->n++];
            memset(s, 0, sizeof *s);
            s->fingerprint = f;
            while (*rest == ' ' || *rest == '\t') rest++;
            if (!(s->description = strdup(rest))) goto nomem;
        } else if ((strcmp(kind, "context") == 0 || strcmp(kind, ADCL_LINE) == 0 ||
                    is_record(kind)) &&
                   out->n > 0) {
            hentry e;
            int bad = strcmp(kind, ADCL_LINE) == 0 ? parse_adcl(rest, &e)
                      : is_record(kind)            ? parse_record(kind, rest, &e)
                                                   : parse_context(rest, &e);
            if (bad) {
                ac_why_printf(why, why_len, "line %ld: a bad %s line", line, kind);
                goto fail;
            }
            if (list_add(&out->s[out->n - 1].contexts, &e)) goto nomem;
        } else {
            ac_why_printf(why, why_len, "line %ld: unexpected \"%.40s\"", line, kind);
            goto fail;
        }
    }
    if (!header) {
        ac_why_printf(why, why_len, "empty (no header)");
        goto fail;
    }
    free(copy);
    return out->n;
nomem:
    ac_why_printf(why, why_len, "out of memory");
fail:
    free(copy);
    file_free(out);
    return -1;
}

static void write_entry(FILE *f, const hentry *e)
{
    int known = 0;
    for (int i = 0; i < e->n; i++) known += e->cand[i].samples > 0;
    if (!known) return;
    if (e->kind == ADCL_ENTRY)
        fprintf(f, "%s %s %d", ADCL_LINE, e->adcl, known);
    else if (e->kind == RECORD_ENTRY)
        fprintf(f, "%s %d", e->adcl, known);
    else
        fprintf(f, "context %s %d %llu %d %d %d %016llx %d",
                ac_collective_name(e->key.collective), e->key.comm_size, e->key.bytes,
                e->key.count, e->key.op_builtin, e->key.op_commutative,
                (unsigned long long)e->key.site, known);
    for (int i = 0; i < e->n; i++)
        if (e->cand[i].samples > 0)
            fprintf(f, " %s %.17g %.17g %ld", e->cand[i].name, e->cand[i].seconds,
                    e->cand[i].var, e->cand[i].samples);
    fputc('\n', f);
}

static void write_section(FILE *f, const hsection *s)
{
    fprintf(f, "platform %016llx %s\n", (unsigned long long)s->fingerprint, s->description);
    for (int i = 0; i < s->contexts.n; i++) write_entry(f, &s->contexts.e[i]);
}

/* One line of a kind: the known candidates of names[n] (a context's algorithms, an ADCL
 * request's functions or the model's parameters). */
static void write_known(FILE *f, int kind, const ac_history_key *key, const char *adcl,
                        const char *const *names, int n, const ac_knowledge *know)
{
    hcand small[64];
    hentry e = {kind, *key, (char *)adcl, 0,
                n <= 64 ? small : malloc(sizeof(hcand) * (size_t)n)};
    if (!e.cand) return;
    for (int i = 0; i < n; i++) {
        if (know[i].samples <= 0 || !valid_name(names[i]) || !(know[i].seconds >= 0.0) ||
            !isfinite(know[i].seconds))
            continue;
        hcand *c = &e.cand[e.n++];
        strcpy(c->name, names[i]);
        c->seconds = know[i].seconds;
        c->var = know[i].var >= 0.0 && isfinite(know[i].var) ? know[i].var : 0.0;
        c->samples = know[i].samples;
    }
    write_entry(f, &e);
    if (e.cand != small) free(e.cand);
}

void ac_history_write_context(FILE *f, const ac_history_key *key,
                              const ac_algorithm *const *candidates, int n,
                              const ac_knowledge *know)
{
    const char *small[64] = {NULL}, **names = n <= 64 ? small : malloc(sizeof *names * (size_t)n);
    if (!names) return;
    for (int i = 0; i < n; i++) names[i] = candidates[i]->name;
    write_known(f, CONTEXT_ENTRY, key, NULL, names, n, know);
    if (names != small) free(names);
}

void ac_history_write_adcl(FILE *f, const char *key, const char *const *names, int n,
                           const ac_knowledge *know)
{
    const ac_history_key none = {0};
    if (valid_key(key)) write_known(f, ADCL_ENTRY, &none, key, names, n, know);
}

void ac_history_write_record(FILE *f, const char *tag, const char *const *names, int n,
                             const ac_knowledge *know)
{
    const ac_history_key none = {0};
    if (is_record(tag)) write_known(f, RECORD_ENTRY, &none, tag, names, n, know);
}

int ac_history_parse(const char *text, uint64_t fingerprint, char **section, char *why,
                     size_t why_len)
{
    hfile f;
    *section = NULL;
    int n = parse_text(text, 1, &f, why, why_len);
    if (n < 0) return -1;
    for (int i = 0; i < f.n; i++) {
        if (f.s[i].fingerprint != fingerprint) continue;
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        if (!m) break;
        for (int k = 0; k < f.s[i].contexts.n; k++) write_entry(m, &f.s[i].contexts.e[k]);
        fclose(m);
        *section = buf;
        break;
    }
    file_free(&f);
    return n;
}

/* ---- the file ---------------------------------------------------------------------------- */

static int lock_file(const char *path, int *fd_out, char *why, size_t why_len)
{
    char lock[PATH_MAX];
    if (snprintf(lock, sizeof lock, "%s.lock", path) >= (int)sizeof lock) {
        ac_why_printf(why, why_len, "the path is too long");
        return -1;
    }
    int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        ac_why_printf(why, why_len, "cannot open %s: %s", lock, strerror(errno));
        return -1;
    }
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    for (long waited_ms = 0;; waited_ms += 10) {
        if (fcntl(fd, F_SETLK, &fl) == 0) break;
        if ((errno != EACCES && errno != EAGAIN && errno != EINTR) ||
            waited_ms >= LOCK_SECONDS * 1000L) {
            ac_why_printf(why, why_len, "cannot lock %s: %s", lock,
                          errno == EACCES || errno == EAGAIN ? "another job held it too long"
                                                             : strerror(errno));
            close(fd);
            return -1;
        }
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    *fd_out = fd;
    return 0;
}

static void unlock_file(int fd)
{
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_UNLCK;
    fl.l_whence = SEEK_SET;
    fcntl(fd, F_SETLK, &fl);
    close(fd);
}

/* Write f to a temporary file beside path, then rename it over path. */
static int replace_file(const char *path, const hfile *f, char *why, size_t why_len)
{
    char tmp[PATH_MAX], host[64] = "host";
    gethostname(host, sizeof host - 1);
    host[sizeof host - 1] = '\0';
    if (snprintf(tmp, sizeof tmp, "%s.tmp.%s.%ld", path, host, (long)getpid()) >=
        (int)sizeof tmp) {
        ac_why_printf(why, why_len, "the path is too long");
        return -1;
    }
    FILE *out = fopen(tmp, "w");
    if (!out) {
        ac_why_printf(why, why_len, "cannot create %s: %s", tmp, strerror(errno));
        return -1;
    }
    fprintf(out, "%s %d\n# autocoll's learned state (docs/history.md); safe to delete\n", HEADER,
            FORMAT);
    for (int i = 0; i < f->n; i++) write_section(out, &f->s[i]);
    int failed = fflush(out) != 0 || ferror(out) || fsync(fileno(out)) != 0;
    int e = errno;
    failed |= fclose(out) != 0;
    if (failed || rename(tmp, path) != 0) {
        if (!failed) e = errno;
        ac_why_printf(why, why_len, "cannot write it: %s", strerror(e));
        unlink(tmp);
        return -1;
    }
    return 0;
}

int ac_history_merge_file(const char *path, uint64_t fingerprint, const char *description,
                          const char *contexts, char *why, size_t why_len)
{
    int fd, rc = -1;
    hfile file, job;
    memset(&file, 0, sizeof file);
    if (parse_text(contexts, 0, &job, why, why_len) < 0) return -1;
    if (lock_file(path, &fd, why, why_len) != 0) {
        file_free(&job);
        return -1;
    }
    char *text = ac_read_text_file(path, MAX_FILE_BYTES);
    if (!text && errno != ENOENT) {
        ac_why_printf(why, why_len, "cannot read it: %s", strerror(errno));
        goto out;
    }
    if (text && parse_text(text, 1, &file, why, why_len) < 0) goto out; /* never overwritten */
    hsection *mine = NULL;
    for (int i = 0; i < file.n && !mine; i++)
        if (file.s[i].fingerprint == fingerprint) mine = &file.s[i];
    if (!mine) {
        if (file.n == file.cap) {
            int cap = file.cap ? 2 * file.cap : 4;
            hsection *grown = realloc(file.s, sizeof *grown * (size_t)cap);
            if (!grown) goto nomem;
            file.s = grown;
            file.cap = cap;
        }
        mine = &file.s[file.n];
        memset(mine, 0, sizeof *mine);
        mine->fingerprint = fingerprint;
        if (!(mine->description = strdup(description))) goto nomem;
        file.n++;
    }
    for (int i = 0; i < job.s[0].contexts.n; i++)
        if (list_add(&mine->contexts, &job.s[0].contexts.e[i])) goto nomem;
    rc = replace_file(path, &file, why, why_len);
    goto out;
nomem:
    ac_why_printf(why, why_len, "out of memory");
out:
    unlock_file(fd);
    free(text);
    file_free(&file);
    file_free(&job);
    return rc;
}

/* ---- the run's history: MPI ---------------------------------------------------------------- */

static struct {
    int on;                         /* every rank: load and store happen */
    int writable;                   /* rank 0: the file may be written at the end */
    char path[PATH_MAX];            /* rank 0's path; "" elsewhere */
    int default_path;               /* AUTOCOLL_HISTORY=auto */
    uint64_t fingerprint;           /* rank 0 */
    char description[DESCRIPTION_LEN];
    hlist known;                    /* every rank: this platform's contexts */
    char *kept;                     /* lines handed over before the end (ac_history_keep) */
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

/* Whether the directory of path takes a new file (the rename); else the reason in why. */
static int directory_writable(const char *path, char *why, size_t why_len)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        strcpy(dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    if (access(dir, W_OK | X_OK) == 0) return 1;
    ac_why_printf(why, why_len, "%s: %s", dir, strerror(errno));
    return 0;
}

/* Rank 0: the section of this platform from the file, or NULL; reports what is wrong once.
 * (The default location's directory is made at the end, so it is not checked here.) */
static char *load_section(void)
{
    char why[PATH_MAX + 256] = "", *section = NULL;
    if (!h.default_path && !directory_writable(h.path, why, sizeof why)) {
        h.writable = 0;
        if (access(h.path, R_OK) != 0) {
            ac_log_warn("history %s: cannot be read or created (%s); no history for this run",
                        h.path, why);
            return NULL;
        }
        ac_log_warn("history %s: its directory is not writable (%s); the file is read but "
                    "will not be updated",
                    h.path, why);
    }
    char *text = ac_read_text_file(h.path, MAX_FILE_BYTES);
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
                        h.path, strerror(errno));
            h.writable = 0;
        }
        return NULL;
    }
    int n = ac_history_parse(text, h.fingerprint, &section, why, sizeof why);
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
    list_free(&h.known);
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
    if (rank == 0 && !(hosts = calloc((size_t)np, MPI_MAX_PROCESSOR_NAME))) {
        ac_log_error("history: out of memory for %d host names", np);
        PMPI_Abort(MPI_COMM_WORLD, MPI_ERR_NO_MEM); /* as select.c does: fail loudly */
    }
    PMPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, hosts, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                0, h.comm);
    char *section = NULL;
    long size[2] = {0, 1}; /* section bytes, history on */
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
            section = load_section();
            size[0] = section ? (long)strlen(section) : 0;
        }
    }
    free(hosts);
    PMPI_Bcast(size, 2, MPI_LONG, 0, h.comm);
    h.on = size[1] != 0;
    if (size[0] > 0 && size[0] < INT_MAX) {
        if (rank != 0) section = calloc((size_t)size[0] + 1, 1);
        int ok = section != NULL, all = 0;
        PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, h.comm);
        if (all) {
            PMPI_Bcast(section, (int)size[0], MPI_CHAR, 0, h.comm);
            hfile f;
            char why[256];
            /* the same text on every rank: the same outcome on every rank */
            if (parse_text(section, 0, &f, why, sizeof why) >= 0) {
                h.known = f.s[0].contexts;
                memset(&f.s[0].contexts, 0, sizeof f.s[0].contexts);
                file_free(&f);
            }
        }
    }
    free(section);
    if (!h.on) PMPI_Comm_free(&h.comm);
}

/* What e (NULL: nothing) knows of the candidate called `name`, into *know (zeroed when
 * nothing); returns whether it is known. */
static int lookup(const hentry *e, const char *name, ac_knowledge *know)
{
    memset(know, 0, sizeof *know);
    for (int j = 0; e && j < e->n; j++)
        if (strcmp(name, e->cand[j].name) == 0) {
            know->seconds = e->cand[j].seconds;
            know->var = e->cand[j].var;
            know->samples = e->cand[j].samples;
            return 1;
        }
    return 0;
}

int ac_history_lookup(const ac_history_key *key, const ac_algorithm *const *candidates, int n,
                      ac_knowledge *know)
{
    int known = 0;
    const hentry *e = h.on ? list_find(&h.known, CONTEXT_ENTRY, key, NULL) : NULL;
    for (int i = 0; i < n; i++) known += lookup(e, candidates[i]->name, &know[i]);
    return known;
}

int ac_history_lookup_adcl(const char *key, const char *const *names, int n,
                           ac_knowledge *know)
{
    int known = 0;
    const hentry *e = h.on ? list_find(&h.known, ADCL_ENTRY, NULL, key) : NULL;
    for (int i = 0; i < n; i++) known += lookup(e, names[i], &know[i]);
    return known;
}

int ac_history_lookup_record(const char *tag, const char *const *names, int n,
                             ac_knowledge *know)
{
    int known = 0;
    const hentry *e = h.on ? list_find(&h.known, RECORD_ENTRY, NULL, tag) : NULL;
    for (int i = 0; i < n; i++) known += lookup(e, names[i], &know[i]);
    return known;
}

void ac_history_keep(const char *lines)
{
    size_t n = strlen(lines);
    char *grown = h.on && n ? realloc(h.kept, h.kept_len + n + 1) : NULL;
    if (!grown) return; /* off, nothing, or out of memory: this knowledge is not kept */
    memcpy(grown + h.kept_len, lines, n + 1);
    h.kept = grown;
    h.kept_len += n;
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
    list_free(&h.known);
    PMPI_Comm_free(&h.comm);
    h.on = 0;
}
