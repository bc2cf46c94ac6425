/*
 * store.c - the keyed record store (store.h): the file's text format, merging, and the file
 * itself under concurrent writers.
 *
 * Merging. Two records of one kind and key (the file's and this job's, or two communicators'
 * of one job) are merged entry by entry, matched by name: value and variance become the mean
 * of the two weighted by min(samples, WEIGHT_CAP), samples add up. The cap keeps a long history
 * from outweighing what a new run measured: after a change of the platform the file follows
 * within a few runs. Entries only one record knows are kept as they are.
 *
 * Concurrency. A writer takes an exclusive fcntl() lock on "<path>.lock" (a lock on the file
 * itself would be lost by the rename), waiting up to LOCK_SECONDS; then it reads the file as
 * it is now, merges, writes "<path>.tmp.<host>.<pid>", fsyncs it and renames it over the path.
 * Readers never lock: rename is atomic, so they see the old file or the new one, whole. A file
 * that does not parse is never overwritten (it may not be ours).
 */
#include "core/store.h"
#include "core/safefile.h"
#include "core/textfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define HEADER "autocoll-history"
#define FORMAT 1
#define NAME_MAX_LEN 64    /* algorithm names are shorter */
#define MAX_CANDIDATES 4096 /* per record line */
#define WEIGHT_CAP 64      /* samples that count in a merge (see above) */
#define LOCK_SECONDS 30    /* the longest wait for another writer */
#define MAX_KEY_TOKENS 16  /* of a kind's key */

typedef struct hcand {
    char name[NAME_MAX_LEN];
    double seconds, var;
    long samples;
} hcand;

typedef struct hentry {
    const ac_store_kind *kind;
    char *key; /* as the kind writes it; "" for a kind without one */
    int n;
    hcand *cand;
} hentry;

/* Records in the order first seen, with an index by kind and key: a file of many records is
 * read in linear time (a search of the list for each line kept MPI_Init busy 587 s with a
 * 40 MB file of 140,000 contexts). */
typedef struct hlist {
    hentry *e;
    int n, cap;
    int *slot;  /* [nslots], open addressing: 1 + the record's place in e, 0 empty */
    int nslots; /* a power of two, at least twice n; 0 before the first record */
} hlist;

struct ac_store_records {
    hlist list;
};

typedef struct hsection {
    uint64_t fingerprint;
    char *description;
    hlist records;
    size_t from, to; /* its record lines in the text parsed: [from, to) */
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
        free(l->e[i].key);
    }
    free(l->e);
    free(l->slot);
    memset(l, 0, sizeof *l);
}

static void file_free(hfile *f)
{
    for (int i = 0; i < f->n; i++) {
        free(f->s[i].description);
        list_free(&f->s[i].records);
    }
    free(f->s);
    memset(f, 0, sizeof *f);
}

/* FNV-1a of the kind's tag and the key. */
static size_t key_hash(const ac_store_kind *kind, const char *key)
{
    uint64_t h = 14695981039346656037ull;
    for (const char *c = kind->tag; *c; c++) h = (h ^ (unsigned char)*c) * 1099511628211ull;
    h = (h ^ ' ') * 1099511628211ull;
    for (const char *c = key; *c; c++) h = (h ^ (unsigned char)*c) * 1099511628211ull;
    return (size_t)(h ^ (h >> 32)); /* the slot is taken from the low bits: mix the high in */
}

/* The slot of the record of `kind` and `key`: the one that holds it, else the empty one where
 * it would go. l->nslots > 0. */
static int *list_slot(const hlist *l, const ac_store_kind *kind, const char *key)
{
    size_t mask = (size_t)l->nslots - 1, i = key_hash(kind, key) & mask;
    for (;; i = (i + 1) & mask) {
        int *s = &l->slot[i];
        if (*s == 0) return s;
        const hentry *e = &l->e[*s - 1];
        if (e->kind == kind && strcmp(e->key, key) == 0) return s;
    }
}

/* The record of `kind` and `key`, or NULL. */
static hentry *list_find(const hlist *l, const ac_store_kind *kind, const char *key)
{
    int *s = l->nslots ? list_slot(l, kind, key) : NULL;
    return s && *s ? &l->e[*s - 1] : NULL;
}

/* An index of twice as many slots as records will be, after one more. -1 on no memory. */
static int list_reindex(hlist *l)
{
    if (l->nslots >= 2 * (l->n + 1)) return 0;
    int nslots = l->nslots ? 2 * l->nslots : 32;
    int *slot = calloc((size_t)nslots, sizeof *slot);
    if (!slot) return -1;
    free(l->slot);
    l->slot = slot;
    l->nslots = nslots;
    for (int i = 0; i < l->n; i++) *list_slot(l, l->e[i].kind, l->e[i].key) = i + 1;
    return 0;
}

static long weight(long samples)
{
    return samples < WEIGHT_CAP ? samples : WEIGHT_CAP;
}

static int cmp_by_name(const void *a, const void *b)
{
    return strcmp((*(const hcand *const *)a)->name, (*(const hcand *const *)b)->name);
}

/* Pointers to c[0..n) sorted by name (malloc'd), or NULL on no memory: candidates are matched
 * by name through it, not by a search of the list for each (a line may hold 4096). */
static hcand **sorted_by_name(hcand *c, int n)
{
    hcand **sorted = malloc(sizeof *sorted * (size_t)(n ? n : 1));
    if (!sorted) return NULL;
    for (int i = 0; i < n; i++) sorted[i] = &c[i];
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_by_name);
    return sorted;
}

/* The candidate of sorted[n] of c's name, or NULL. */
static hcand *find_by_name(hcand *const *sorted, int n, const hcand *c)
{
    hcand *const *hit = bsearch(&c, sorted, (size_t)n, sizeof *sorted, cmp_by_name);
    return hit ? *hit : NULL;
}

/* Merge src's candidates into dst (see the header comment); names unknown to dst are added in
 * src's order. -1 on no memory. */
static int entry_merge(hentry *dst, const hentry *src)
{
    int known = dst->n; /* src's names are distinct: only dst's own need a search */
    if (src->n == 0) return 0;
    hcand *grown = realloc(dst->cand, sizeof *grown * (size_t)(dst->n + src->n));
    if (!grown) return -1;
    dst->cand = grown;
    hcand **sorted = sorted_by_name(dst->cand, known);
    if (!sorted) return -1;
    for (int i = 0; i < src->n; i++) {
        const hcand *s = &src->cand[i];
        hcand *d = find_by_name(sorted, known, s);
        if (!d) {
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
    free(sorted);
    return 0;
}

/* Add e to l, merging with a record of the same key. Takes e's candidates. -1 on no memory. */
static int list_add(hlist *l, hentry *e)
{
    if (list_reindex(l)) goto nomem;
    int *slot = list_slot(l, e->kind, e->key);
    if (*slot) {
        int rc = entry_merge(&l->e[*slot - 1], e);
        free(e->cand);
        free(e->key);
        e->cand = NULL;
        e->key = NULL;
        return rc;
    }
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        hentry *grown = realloc(l->e, sizeof *grown * (size_t)cap);
        if (!grown) goto nomem;
        l->e = grown;
        l->cap = cap;
    }
    l->e[l->n++] = *e;
    *slot = l->n;
    e->cand = NULL;
    e->key = NULL;
    return 0;
nomem:
    free(e->cand);
    free(e->key);
    return -1;
}

/* ---- the text format --------------------------------------------------------------------- */

int ac_store_parse_long(const char *t, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(t, &end, 10);
    if (errno || end == t || *end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

int ac_store_parse_hex64(const char *t, uint64_t *out)
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


/* Whether two of c[0..n) have one name: 1, or -1 when out of memory (a line not read). */
static int repeats_a_name(hcand *c, int n)
{
    if (n <= 16) { /* most lines: fewer comparisons than sorting takes */
        for (int i = 1; i < n; i++)
            for (int j = 0; j < i; j++)
                if (strcmp(c[i].name, c[j].name) == 0) return 1;
        return 0;
    }
    hcand **sorted = sorted_by_name(c, n);
    int repeats = sorted ? 0 : -1;
    for (int i = 1; sorted && i < n && !repeats; i++)
        repeats = strcmp(sorted[i - 1]->name, sorted[i]->name) == 0;
    free(sorted);
    return repeats;
}

/* The rest of a record line: <n> and n candidates, into out->cand (which it owns on
 * success); 0, or -1 (not valid). */
static int parse_candidates(char *rest, hentry *out)
{
    long n;
    char *t;
    if (!(t = token(&rest)) || ac_store_parse_long(t, 1, MAX_CANDIDATES, &n)) return -1;
    out->cand = calloc((size_t)n, sizeof *out->cand);
    if (!out->cand) return -1;
    for (int i = 0; i < n; i++) {
        hcand *c = &out->cand[i];
        long samples;
        if (!(t = token(&rest)) || !valid_name(t)) goto bad;
        strcpy(c->name, t);
        if (!(t = token(&rest)) || parse_time(t, &c->seconds)) goto bad;
        if (!(t = token(&rest)) || parse_time(t, &c->var)) goto bad;
        if (!(t = token(&rest)) || ac_store_parse_long(t, 1, LONG_MAX, &samples)) goto bad;
        c->samples = samples;
    }
    if (token(&rest) || repeats_a_name(out->cand, (int)n)) goto bad;
    out->n = (int)n;
    return 0;
bad:
    free(out->cand);
    out->cand = NULL;
    return -1;
}

/* A record line of `kind` after its tag, in place; 0, or -1 (not valid). */
static int parse_record(const ac_store_kind *kind, char *rest, hentry *out)
{
    char *tokens[MAX_KEY_TOKENS], key[AC_STORE_KEY_MAX] = "";
    memset(out, 0, sizeof *out);
    out->kind = kind;
    if (kind->key_tokens > MAX_KEY_TOKENS) return -1;
    for (int i = 0; i < kind->key_tokens; i++)
        if (!(tokens[i] = token(&rest))) return -1;
    if (kind->key) {
        if (kind->key(tokens, key, sizeof key) != 0) return -1;
    } else {
        for (int i = 0; i < kind->key_tokens; i++) {
            size_t used = strlen(key);
            if (snprintf(key + used, sizeof key - used, "%s%s", i ? " " : "", tokens[i]) >=
                (int)(sizeof key - used))
                return -1;
        }
    }
    if (!(out->key = strdup(key))) return -1;
    if (parse_candidates(rest, out) == 0) return 0;
    free(out->key);
    out->key = NULL;
    return -1;
}

/* The kind of `tag`, or NULL. */
static const ac_store_kind *kind_of(const char *tag, const ac_store_kind *const *kinds,
                                    int nkinds)
{
    for (int i = 0; i < nkinds; i++)
        if (strcmp(kinds[i]->tag, tag) == 0) return kinds[i];
    return NULL;
}

/* Parse text (a whole file when `whole`, else record lines only, into one section). */
static int parse_text(const char *text, int whole, const ac_store_kind *const *kinds,
                      int nkinds, hfile *out, char *why, size_t why_len)
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
    size_t end = strlen(copy);
    for (char *p = copy, *next; p && *p; p = next) {
        size_t at = (size_t)(p - copy);
        next = strchr(p, '\n');
        if (next) *next++ = '\0';
        line++;
        char *rest = p, *kind = token(&rest);
        if (!kind || kind[0] == '#') continue;
        if (!header) {
            long format;
            char *v = token(&rest);
            if (strcmp(kind, HEADER) != 0 || !v || ac_store_parse_long(v, 0, INT_MAX, &format) ||
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
            if (!fp || ac_store_parse_hex64(fp, &f)) {
                ac_why_printf(why, why_len, "line %ld: a bad platform line", line);
                goto fail;
            }
            if (out->n > 0) out->s[out->n - 1].to = at;
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
            s->from = s->to = next ? (size_t)(next - copy) : end;
            while (*rest == ' ' || *rest == '\t') rest++;
            if (!(s->description = strdup(rest))) goto nomem;
        } else if (kind_of(kind, kinds, nkinds) && out->n > 0) {
            hentry e;
            if (parse_record(kind_of(kind, kinds, nkinds), rest, &e)) {
                ac_why_printf(why, why_len, "line %ld: a bad %s line", line, kind);
                goto fail;
            }
            if (list_add(&out->s[out->n - 1].records, &e)) goto nomem;
        } else {
            ac_why_printf(why, why_len, "line %ld: unexpected \"%.40s\"", line, kind);
            goto fail;
        }
    }
    /* No header: nothing but blank lines and comments (an empty file made with touch), which
     * holds no section yet and is used and written like a missing file. */
    if (out->n > 0) out->s[out->n - 1].to = end;
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
    fprintf(f, "%s%s%s %d", e->kind->tag, e->key[0] ? " " : "", e->key, known);
    for (int i = 0; i < e->n; i++)
        if (e->cand[i].samples > 0)
            fprintf(f, " %s %.17g %.17g %ld", e->cand[i].name, e->cand[i].seconds,
                    e->cand[i].var, e->cand[i].samples);
    fputc('\n', f);
}

static void write_section(FILE *f, const hsection *s)
{
    fprintf(f, "platform %016llx %s\n", (unsigned long long)s->fingerprint, s->description);
    for (int i = 0; i < s->records.n; i++) write_entry(f, &s->records.e[i]);
}

/* Whether `key` is a key of `kind` as the kind writes it. */
static int key_valid(const ac_store_kind *kind, const char *key)
{
    char copy[AC_STORE_KEY_MAX], canonical[AC_STORE_KEY_MAX], *tokens[MAX_KEY_TOKENS], *p = copy;
    if (strlen(key) >= sizeof copy || kind->key_tokens > MAX_KEY_TOKENS) return 0;
    strcpy(copy, key);
    for (int i = 0; i < kind->key_tokens; i++)
        if (!(tokens[i] = token(&p))) return 0;
    if (token(&p)) return 0;
    return !kind->key ||
           (kind->key(tokens, canonical, sizeof canonical) == 0 && strcmp(canonical, key) == 0);
}

void ac_store_write(FILE *f, const ac_store_kind *kind, const char *key,
                    const char *const *names, int n, const ac_knowledge *know)
{
    hcand small[64];
    if (!key_valid(kind, key)) return;
    hentry e = {kind, (char *)key, 0, n <= 64 ? small : malloc(sizeof(hcand) * (size_t)n)};
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

int ac_store_section(const char *text, uint64_t fingerprint, const ac_store_kind *const *kinds,
                     int nkinds, char **section, char *why, size_t why_len)
{
    hfile f;
    *section = NULL;
    int n = parse_text(text, 1, kinds, nkinds, &f, why, why_len);
    if (n < 0) return -1;
    /* its lines as the file has them, not written again from the records (formatting the
     * numbers cost more than parsing them): whoever reads them merges them alike */
    for (int i = 0; i < f.n; i++) {
        if (f.s[i].fingerprint != fingerprint) continue;
        *section = strndup(text + f.s[i].from, f.s[i].to - f.s[i].from);
        break;
    }
    file_free(&f);
    return n;
}

char *ac_store_merged(const char *lines, const ac_store_kind *const *kinds, int nkinds)
{
    hfile f;
    char why[64], *buf = NULL;
    size_t len = 0;
    if (parse_text(lines, 0, kinds, nkinds, &f, why, sizeof why) < 0) return NULL;
    FILE *m = open_memstream(&buf, &len);
    if (m) {
        for (int k = 0; k < f.s[0].records.n; k++) write_entry(m, &f.s[0].records.e[k]);
        if (fclose(m) != 0) {
            free(buf);
            buf = NULL;
        }
    }
    file_free(&f);
    return buf;
}

/* What one record knows of `name` into *know (zeroed first; a NULL record knows nothing);
 * returns whether it is known. */
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

int ac_store_load(const char *text, uint64_t fingerprint, const ac_store_kind *const *kinds,
                  int nkinds, ac_store_records **section, char *why, size_t why_len)
{
    hfile f;
    *section = NULL;
    int n = parse_text(text, 1, kinds, nkinds, &f, why, why_len);
    if (n < 0) return -1;
    for (int i = 0; i < f.n; i++) {
        if (f.s[i].fingerprint != fingerprint) continue;
        if (!(*section = calloc(1, sizeof **section))) {
            file_free(&f);
            ac_why_printf(why, why_len, "out of memory");
            return -1;
        }
        (*section)->list = f.s[i].records;
        memset(&f.s[i].records, 0, sizeof f.s[i].records);
        break;
    }
    file_free(&f);
    return n;
}

/* ---- records as bytes -------------------------------------------------------------------
 *
 * A record: the index of its kind (int), its key (NUL-terminated), its number of candidates
 * (int), then each candidate's name (NUL-terminated), seconds, variance (double) and samples
 * (long), numbers as this machine holds them (the ranks of one job share its representation). */

/* Appends len bytes of p at *w (the room was counted). */
static void put(char **w, const void *p, size_t len)
{
    memcpy(*w, p, len);
    *w += len;
}

/* Takes len bytes at *r into p, unless fewer than len are left before end. */
static int take(const char **r, const char *end, void *p, size_t len)
{
    if ((size_t)(end - *r) < len) return -1;
    memcpy(p, *r, len);
    *r += len;
    return 0;
}

/* The NUL-terminated string at *r (shorter than max), unless it runs past end or is longer. */
static const char *take_string(const char **r, const char *end, size_t max)
{
    const char *s = *r, *nul = memchr(s, '\0', (size_t)(end - s));
    if (!nul || (size_t)(nul - s) >= max) return NULL;
    *r = nul + 1;
    return s;
}

static int kind_index(const ac_store_kind *kind, const ac_store_kind *const *kinds, int nkinds)
{
    for (int i = 0; i < nkinds; i++)
        if (kinds[i] == kind) return i;
    return -1;
}

size_t ac_store_pack(const ac_store_records *r, const ac_store_kind *const *kinds, int nkinds,
                     char **out)
{
    const hlist *l = &r->list;
    size_t len = 0;
    *out = NULL;
    for (int i = 0; i < l->n; i++) {
        len += sizeof(int) + strlen(l->e[i].key) + 1 + sizeof(int);
        for (int j = 0; j < l->e[i].n; j++)
            len += strlen(l->e[i].cand[j].name) + 1 + 2 * sizeof(double) + sizeof(long);
    }
    char *w = len ? malloc(len) : NULL;
    if (!w) return 0;
    *out = w;
    for (int i = 0; i < l->n; i++) {
        const hentry *e = &l->e[i];
        int k = kind_index(e->kind, kinds, nkinds);
        put(&w, &k, sizeof k);
        put(&w, e->key, strlen(e->key) + 1);
        put(&w, &e->n, sizeof e->n);
        for (int j = 0; j < e->n; j++) {
            const hcand *c = &e->cand[j];
            put(&w, c->name, strlen(c->name) + 1);
            put(&w, &c->seconds, sizeof c->seconds);
            put(&w, &c->var, sizeof c->var);
            put(&w, &c->samples, sizeof c->samples);
        }
    }
    return len;
}

/* The record at *r into e (its key and candidates malloc'd); 0, or -1 (not valid, no memory). */
static int unpack_entry(const char **r, const char *end, const ac_store_kind *const *kinds,
                        int nkinds, hentry *e)
{
    int k;
    const char *key, *name;
    memset(e, 0, sizeof *e);
    if (take(r, end, &k, sizeof k) || k < 0 || k >= nkinds) return -1;
    if (!(key = take_string(r, end, AC_STORE_KEY_MAX))) return -1;
    if (take(r, end, &e->n, sizeof e->n) || e->n < 1 || e->n > MAX_CANDIDATES) return -1;
    e->kind = kinds[k];
    e->key = strdup(key);
    e->cand = calloc((size_t)e->n, sizeof *e->cand);
    for (int j = 0; e->key && e->cand && j < e->n; j++) {
        hcand *c = &e->cand[j];
        if (!(name = take_string(r, end, NAME_MAX_LEN)) ||
            take(r, end, &c->seconds, sizeof c->seconds) || take(r, end, &c->var, sizeof c->var) ||
            take(r, end, &c->samples, sizeof c->samples))
            break;
        strcpy(c->name, name);
        if (j == e->n - 1) return 0;
    }
    free(e->key);
    free(e->cand);
    return -1;
}

int ac_store_unpack(const char *bytes, size_t len, const ac_store_kind *const *kinds, int nkinds,
                    ac_store_records **out)
{
    const char *r = bytes, *end = bytes + len;
    if (!(*out = calloc(1, sizeof **out))) return -1;
    while (r < end) {
        hentry e;
        if (unpack_entry(&r, end, kinds, nkinds, &e) || list_add(&(*out)->list, &e)) {
            ac_store_records_free(*out);
            *out = NULL;
            return -1;
        }
    }
    return 0;
}

void ac_store_records_free(ac_store_records *r)
{
    if (!r) return;
    list_free(&r->list);
    free(r);
}

int ac_store_lookup(const ac_store_records *r, const ac_store_kind *kind, const char *key,
                    const char *const *names, int n, ac_knowledge *know)
{
    int known = 0;
    const hentry *e = r ? list_find(&r->list, kind, key) : NULL;
    for (int i = 0; i < n; i++) known += lookup(e, names[i], &know[i]);
    return known;
}

/* ---- the file ---------------------------------------------------------------------------- */

static int lock_file(const char *path, int *fd_out, char *why, size_t why_len)
{
    char lock[PATH_MAX];
    if (snprintf(lock, sizeof lock, "%s.lock", path) >= (int)sizeof lock) {
        ac_why_printf(why, why_len, "the path is too long");
        return -1;
    }
    int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0666);
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

/* Write f to a temporary file beside path, then rename it over path (safefile.h: made
 * exclusively, the file's mode and group kept, a symbolic link's target replaced). */
static int replace_file(const char *path, const hfile *f, char *why, size_t why_len)
{
    ac_file_writer w;
    if (ac_file_begin(&w, path, why, why_len) != 0) return -1;
    fprintf(w.f, "%s %d\n# autocoll's learned state (docs/history.md); safe to delete\n", HEADER,
            FORMAT);
    for (int i = 0; i < f->n; i++) write_section(w.f, &f->s[i]);
    return ac_file_commit(&w, why, why_len);
}

int ac_store_merge_file(const char *path_in, uint64_t fingerprint, const char *description,
                        const char *lines, const ac_store_kind *const *kinds, int nkinds,
                        char *why, size_t why_len)
{
    int fd, rc = -1;
    hfile file, job;
    char final[PATH_MAX];
    memset(&file, 0, sizeof file);
    /* one lock for every name of the file: a symbolic link's jobs and its target's lock alike */
    if (ac_file_resolve(path_in, final, why, why_len) != 0) return -1;
    const char *path = final;
    if (parse_text(lines, 0, kinds, nkinds, &job, why, why_len) < 0) return -1;
    if (lock_file(path, &fd, why, why_len) != 0) {
        file_free(&job);
        return -1;
    }
    char *text = ac_read_text_file(path, AC_STORE_MAX_FILE_BYTES);
    if (!text && errno != ENOENT) {
        ac_why_printf(why, why_len, "cannot read it: %s", ac_file_error(errno));
        goto out;
    }
    if (text && parse_text(text, 1, kinds, nkinds, &file, why, why_len) < 0)
        goto out; /* never overwritten */
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
    for (int i = 0; i < job.s[0].records.n; i++)
        if (list_add(&mine->records, &job.s[0].records.e[i])) goto nomem;
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
