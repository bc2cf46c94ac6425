/*
 * site.c - call-site keys and the site tracker of a bucket (see site.h for the protocol).
 */
#include "select/site.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AC_SITE_STR_(x) #x
#define AC_SITE_STR(x) AC_SITE_STR_(x)

void ac_site_init(ac_site_tracker *t, int enabled)
{
    memset(t, 0, sizeof *t);
    t->mode = enabled ? AC_SITE_LEARN : AC_SITE_SITELESS;
    t->why = enabled ? AC_SITE_WHY_NONE : AC_SITE_WHY_DISABLED;
}

static void become_siteless(ac_site_tracker *t, int why)
{
    t->mode = AC_SITE_SITELESS;
    t->why = why;
    t->changed_at = t->calls;
}

/* A 64-bit key as four doubles whose maxima tell whether every rank sent the same key:
 * (hi, lo, -hi, -lo) of its two 32-bit halves, exact in a double. */
void ac_site_contribution(uint64_t local, double values[AC_SITE_VALUES])
{
    double hi = (double)(local >> 32), lo = (double)(local & 0xffffffffu);
    values[0] = hi;
    values[1] = lo;
    values[2] = -hi;
    values[3] = -lo;
}

/* The smallest period P whose last AC_SITE_REPEATS repeats end the sequence; 0 if none. */
static int find_period(const ac_site_tracker *t)
{
    if (t->len < AC_SITE_LEARN_MIN) return 0;
    for (int p = 1; p <= AC_SITE_MAX_PERIOD; p++) {
        int span = AC_SITE_REPEATS * p;
        if (span > t->len) break;
        int ok = 1;
        for (int j = t->len - span + p; j < t->len && ok; j++)
            ok = t->seq[j] == t->seq[j - p];
        if (ok) return p;
    }
    return 0;
}

uint64_t ac_site_learn(ac_site_tracker *t, const double agreed[AC_SITE_VALUES])
{
    t->calls++;
    t->learn_calls++;
    if (agreed[0] != -agreed[2] || agreed[1] != -agreed[3]) {
        become_siteless(t, AC_SITE_WHY_DISAGREED);
        return 0;
    }
    uint64_t site = ((uint64_t)agreed[0] << 32) | (uint64_t)agreed[1];
    t->seq[t->len++] = site;
    int p = find_period(t);
    if (p > 0) {
        t->mode = AC_SITE_PREDICT;
        t->period = p;
        t->next = 0;
        t->mismatch = 0;
        t->changed_at = t->calls;
    } else if (t->len == AC_SITE_LEARN_MAX) {
        become_siteless(t, AC_SITE_WHY_NO_PERIOD);
    }
    return site;
}

uint64_t ac_site_predict(ac_site_tracker *t, uint64_t local)
{
    t->calls++;
    if (t->mode != AC_SITE_PREDICT) return 0;
    uint64_t site = t->seq[t->len - t->period + (int)(t->next++ % t->period)];
    if (site != local) t->mismatch = 1;
    return site;
}

double ac_site_flag(const ac_site_tracker *t)
{
    return t->mode == AC_SITE_PREDICT && t->mismatch ? 1.0 : 0.0;
}

void ac_site_verify(ac_site_tracker *t, double agreed_flag)
{
    if (t->mode != AC_SITE_PREDICT) return;
    t->mismatch = 0;
    if (!(agreed_flag > 0.0)) return;
    if (t->relearns == AC_SITE_RELEARNS) {
        become_siteless(t, AC_SITE_WHY_MISPREDICTED);
        return;
    }
    /* The pattern changed (say, a setup phase ended): learn again from here. */
    t->relearns++;
    t->mode = AC_SITE_LEARN;
    t->len = 0;
    t->changed_at = t->calls;
}

const char *ac_site_mode_name(int mode)
{
    static const char *const names[] = {"learn", "predict", "siteless"};
    return mode >= 0 && mode <= AC_SITE_SITELESS ? names[mode] : "?";
}

const char *ac_site_why_name(int why)
{
    static const char *const names[] = {
        "",
        "call sites off (AUTOCOLL_MAX_SITES=0)",
        "ranks called from different sites",
        "no repeating pattern of sites in " AC_SITE_STR(AC_SITE_LEARN_MAX) " calls",
        "a rank called from a site other than the predicted one, " AC_SITE_STR(
            AC_SITE_RELEARNS) " times after learning again",
    };
    return why >= 0 && why <= AC_SITE_WHY_MISPREDICTED ? names[why] : "?";
}

/* ------------------------------------------------------------------------------------------ */
/* Keys: module basename hash mixed with the offset, cached by raw return address. */

typedef struct site_entry {
    const void *address;
    uint64_t key;
    const char *path;   /* the module's file as the dynamic loader names it (valid while loaded) */
    const char *module; /* its basename */
    uintptr_t offset;
} site_entry;

#define CACHE_SIZE 256
static site_entry cache[CACHE_SIZE]; /* direct-mapped by address: a collision evicts */

/* Every key made so far, for ac_site_describe (programs have few call sites). */
static site_entry *known;
static size_t nknown, known_capacity;

static void remember(const site_entry *e)
{
    for (size_t i = 0; i < nknown; i++)
        if (known[i].key == e->key) return;
    if (nknown == known_capacity) {
        size_t n = known_capacity ? 2 * known_capacity : 64;
        site_entry *k = realloc(known, n * sizeof *k);
        if (!k) return; /* only the description is lost */
        known = k;
        known_capacity = n;
    }
    known[nknown++] = *e;
}

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

uint64_t ac_site_key(const void *return_address)
{
    size_t slot = (size_t)(mix((uint64_t)(uintptr_t)return_address) % CACHE_SIZE);
    site_entry *e = &cache[slot];
    if (e->address == return_address && e->key) return e->key;

    Dl_info info;
    const char *path = "?", *module = "?";
    uintptr_t offset = (uintptr_t)return_address;
    if (dladdr(return_address, &info) && info.dli_fname) {
        const char *slash = strrchr(info.dli_fname, '/');
        path = info.dli_fname;
        module = slash ? slash + 1 : info.dli_fname;
        offset = (uintptr_t)return_address - (uintptr_t)info.dli_fbase;
    }
    uint64_t h = 1469598103934665603ULL; /* FNV-1a of the basename */
    for (const char *p = module; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    uint64_t key = mix(h ^ mix((uint64_t)offset));
    if (key == 0) key = 1;
    e->address = return_address;
    e->key = key;
    e->path = path;
    e->module = module;
    e->offset = offset;
    remember(e);
    return key;
}

static const site_entry *known_entry(uint64_t key)
{
    for (size_t i = 0; i < nknown; i++)
        if (known[i].key == key) return &known[i];
    return NULL;
}

void ac_site_describe(uint64_t key, char *out, size_t size)
{
    const site_entry *e = key ? known_entry(key) : NULL;
    if (key == 0)
        snprintf(out, size, "*");
    else if (e)
        snprintf(out, size, "%s+0x%lx", e->module, (unsigned long)e->offset);
    else
        snprintf(out, size, "%016llx", (unsigned long long)key);
}

int ac_site_origin_of(uint64_t key, ac_site_origin *out)
{
    const site_entry *e = key ? known_entry(key) : NULL;
    if (!e) return 0;
    *out = (ac_site_origin){e->address, e->path, e->module, e->offset};
    return 1;
}
