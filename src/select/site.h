/*
 * site.h - call-site keys, and how ranks come to agree on the call site of a call without an
 * agreement at every call.
 *
 * A site key names the instruction that called the MPI routine: a hash of the module's file
 * name (basename) and the return address's offset in that module, so it is equal on every rank
 * running the same binary whatever the address-space randomisation. 0 is never a site key: it
 * means "site-less".
 *
 * Nothing local may pick a call's tuning context (a divergence is a hang), and ranks may reach
 * one collective from different sites in any order. So a bucket (communicator, collective,
 * message size) learns its site sequence, then predicts it, and verifies the prediction:
 *
 *   LEARN      every call agrees on its site (one 4-double MPI_MAX allreduce): if every rank
 *              called from the same site, that site is the call's; the agreed sequence is kept.
 *              After at least AC_SITE_LEARN_MIN calls, as soon as the tail of the sequence has
 *              repeated a period P AC_SITE_REPEATS times (P = 1 for a single site), the bucket
 *              predicts. On a disagreement (ranks at different sites) or after
 *              AC_SITE_LEARN_MAX calls without a period, it becomes SITELESS.
 *   PREDICT    no agreement: the call's site is the next one of the learned period, on every
 *              rank alike. A rank whose own site differs raises a local flag; the flag rides
 *              along with the next agreement of one of the bucket's tuning contexts (an extra
 *              value), and when any rank raised it, every rank sends the bucket back to LEARN
 *              there (a setup phase may have ended), at most AC_SITE_RELEARNS times; the next
 *              time it becomes SITELESS.
 *   SITELESS   the call's site is 0 (the site-less context).
 *
 * Every mode change depends on agreed values only, so all ranks see the same site for every
 * call: a wrong prediction can only charge one call's time to another site's context until the
 * next agreement, never split the ranks. The tracker is pure (no MPI): select.c does the
 * agreements; tests/unit/test_site.c drives it over simulated ranks.
 */
#ifndef AUTOCOLL_SITE_H
#define AUTOCOLL_SITE_H

#include <stddef.h>
#include <stdint.h>

#define AC_SITE_REPEATS 4     /* a period is trusted after this many repeats */
#define AC_SITE_MAX_PERIOD 16 /* longest period learned */
#define AC_SITE_LEARN_MIN 16  /* calls agreed one by one before any period is trusted */
#define AC_SITE_LEARN_MAX 256 /* calls agreed one by one before giving up on a period */
#define AC_SITE_RELEARNS 2    /* mispredictions that send a bucket back to LEARN */
#define AC_SITE_VALUES 4      /* doubles in a LEARN agreement */

enum { AC_SITE_LEARN, AC_SITE_PREDICT, AC_SITE_SITELESS };

/* Why a bucket became SITELESS (reported). */
enum {
    AC_SITE_WHY_NONE,
    AC_SITE_WHY_DISABLED,     /* AUTOCOLL_MAX_SITES=0 */
    AC_SITE_WHY_DISAGREED,    /* ranks called from different sites during LEARN */
    AC_SITE_WHY_NO_PERIOD,    /* AC_SITE_LEARN_MAX calls without a period */
    AC_SITE_WHY_MISPREDICTED  /* a rank's site differed from the prediction */
};

typedef struct ac_site_tracker {
    int mode;
    int why;                         /* AC_SITE_WHY_* once SITELESS */
    uint64_t seq[AC_SITE_LEARN_MAX]; /* agreed sites in LEARN */
    int len;
    int period;       /* PREDICT: pattern = seq[len - period .. len) */
    int phase;        /* PREDICT: position of the next call in the pattern, 0 .. period-1 */
    int mismatch;     /* local: a call's own site differed from the prediction */
    long learn_calls; /* calls agreed one by one */
    int relearns;     /* returns to LEARN after a misprediction */
    long changed_at;  /* bucket call index of the last mode change */
    long calls;       /* calls seen */
} ac_site_tracker;

/* A new tracker: LEARN, or SITELESS with AC_SITE_WHY_DISABLED when `enabled` is 0. */
void ac_site_init(ac_site_tracker *t, int enabled);

/* LEARN: this rank's values for the call's agreement (combined with MPI_MAX), then the agreed
 * site of the call from the combined values (0: site-less; the tracker may change mode). */
void ac_site_contribution(uint64_t local, double values[AC_SITE_VALUES]);
uint64_t ac_site_learn(ac_site_tracker *t, const double agreed[AC_SITE_VALUES]);

/* PREDICT and SITELESS: the site of the call (no agreement). Inline: it runs on every call. */
static inline uint64_t ac_site_predict(ac_site_tracker *t, uint64_t local)
{
    t->calls++;
    if (t->mode != AC_SITE_PREDICT) return 0;
    uint64_t site = t->seq[t->len - t->period + t->phase]; /* no division on the hot path */
    if (++t->phase == t->period) t->phase = 0;
    if (site != local) t->mismatch = 1;
    return site;
}

/* The extra value this rank adds to a context agreement of the bucket, and the combined value
 * (MPI_MAX over the ranks) once agreed. */
double ac_site_flag(const ac_site_tracker *t);
void ac_site_verify(ac_site_tracker *t, double agreed_flag);

const char *ac_site_mode_name(int mode);
const char *ac_site_why_name(int why);

/* The site key of a return address (cached), and its readable form "module+0xoffset". */
uint64_t ac_site_key(const void *return_address);
void ac_site_describe(uint64_t key, char *out, size_t size);

/* Where this rank made a site key: one of its return addresses in this process, the module's
 * file as the dynamic loader names it (dladdr's dli_fname: the full path where the loader was
 * given one), its basename and the offset of the return address in it. The report resolves
 * the address to a source line at MPI_Finalize (src/report/site_name.h), never per call. */
typedef struct ac_site_origin {
    const void *address;
    const char *path;
    const char *module;
    uintptr_t offset;
} ac_site_origin;

/* 1 and *out filled if this rank made `key`; 0 otherwise (and for the site-less key 0). */
int ac_site_origin_of(uint64_t key, ac_site_origin *out);

#endif
