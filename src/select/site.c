/*
 * site.c - call-site keys and the site tracker of a bucket (see site.h for the protocol).
 */
#include "select/site.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
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
        t->phase = 0;
        t->mismatch = 0;
        t->changed_at = t->calls;
    } else if (t->len == AC_SITE_LEARN_MAX) {
        become_siteless(t, AC_SITE_WHY_NO_PERIOD);
    }
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
/* Keys: module basename hash mixed with the offset, cached by raw return address.
 *
 * Threads (MPI_THREAD_MULTIPLE) make keys concurrently, so a settled call must find its key
 * without a lock: an entry, once made, never changes and never goes; the cache's slots point to
 * entries and are published with release and read with acquire (plain loads and stores on
 * x86-64). A miss (the first call from a return address, or an eviction) takes `known_lock`
 * and finds or makes the address's entry; the list of every entry (for ac_site_describe and
 * the report) is read under the same lock. */

typedef struct site_entry {
    const void *address;
    uint64_t key;
    const char *path;   /* the module's file as the dynamic loader names it (valid while loaded) */
    const char *module; /* its basename */
    uintptr_t offset;
    struct site_entry *next; /* in `known`, newest first */
} site_entry;

#define CACHE_SIZE 256 /* cache_slot's 8 bits */
/* direct-mapped by address: a collision evicts */
static _Atomic(const site_entry *) cache[CACHE_SIZE];

/* Every entry made so far, one per return address (programs have few call sites). */
static site_entry *known;
static pthread_mutex_t known_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

/* The entry of return_address, made at its first call (*e NULL without memory: only the
 * description is lost), and its key. Under known_lock. */
static uint64_t entry_of(const void *return_address, const site_entry **made)
{
    for (const site_entry *e = known; e; e = e->next)
        if (e->address == return_address) return (*made = e)->key;
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
    site_entry *e = malloc(sizeof *e);
    if (e) {
        *e = (site_entry){return_address, key, path, module, offset, known};
        known = e;
    }
    *made = e;
    return key;
}

/* The cache's slot of an address: the top bits of a multiplicative hash. */
static size_t cache_slot(const void *return_address)
{
    return (size_t)(((uint64_t)(uintptr_t)return_address * 0x9e3779b97f4a7c15ull) >> 56);
}

/* The key of an address the cache does not hold (its first call, or a collision): out of line,
 * so that a settled call's lookup stays short. */
static __attribute__((noinline)) uint64_t site_key_slow(const void *return_address)
{
    const site_entry *e;
    pthread_mutex_lock(&known_lock);
    uint64_t key = entry_of(return_address, &e);
    pthread_mutex_unlock(&known_lock);
    if (e) atomic_store_explicit(&cache[cache_slot(return_address)], e, memory_order_release);
    return key;
}

uint64_t ac_site_key(const void *return_address)
{
    const site_entry *e =
        atomic_load_explicit(&cache[cache_slot(return_address)], memory_order_acquire);
    if (e && e->address == return_address) return e->key;
    return site_key_slow(return_address);
}

/* The oldest entry of key (as before: the first address that made it); under known_lock. */
static const site_entry *known_entry(uint64_t key)
{
    const site_entry *found = NULL;
    for (const site_entry *e = known; e; e = e->next)
        if (e->key == key) found = e;
    return found;
}

void ac_site_describe(uint64_t key, char *out, size_t size)
{
    pthread_mutex_lock(&known_lock);
    const site_entry *e = key ? known_entry(key) : NULL;
    if (key == 0)
        snprintf(out, size, "*");
    else if (e)
        snprintf(out, size, "%s+0x%lx", e->module, (unsigned long)e->offset);
    else
        snprintf(out, size, "%016llx", (unsigned long long)key);
    pthread_mutex_unlock(&known_lock);
}

int ac_site_origin_of(uint64_t key, ac_site_origin *out)
{
    pthread_mutex_lock(&known_lock);
    const site_entry *e = key ? known_entry(key) : NULL;
    if (e) *out = (ac_site_origin){e->address, e->path, e->module, e->offset};
    pthread_mutex_unlock(&known_lock);
    return e != NULL;
}
