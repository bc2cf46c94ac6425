/*
 * test_history.c - the history file without MPI (history.h): the format round trip, merging,
 * refusal of files that do not parse (left byte for byte as they were), the lock, and many
 * processes merging into one file at once (every one's knowledge must be there at the end, in
 * a file that parses, with no temporary file left behind), the platform key, and ADCL requests'
 * lines beside the contexts.
 */
#include "check.h"
#include "adcl/adcl.h"
#include "select/history.h"
#include "select/model.h"
#include "select/strategy.h"

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char dir[256];

static const ac_algorithm alg_a = {.name = "alpha"}, alg_b = {.name = "beta"},
                          alg_c = {.name = "gamma"};
static const ac_algorithm *const cands[3] = {&alg_a, &alg_b, &alg_c};

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, f);
    buf[got] = '\0';
    fclose(f);
    return buf;
}

static void spit(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    fwrite(text, 1, len, f);
    fclose(f);
}

static ac_history_key key_of(int coll, unsigned long long bytes, uint64_t site)
{
    ac_history_key k = {coll, 4, bytes, (int)bytes, 1, 1, site};
    return k;
}

/* Context lines for key k with times t[3] and samples n[3] (0: unknown). */
static char *lines(const ac_history_key *k, const double *t, const long *n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    ac_knowledge know[3];
    for (int i = 0; i < 3; i++) know[i] = (ac_knowledge){t[i], t[i] / 10, n[i]};
    ac_history_write_context(m, k, cands, 3, know);
    fclose(m);
    return buf;
}

/* What the section of fingerprint fp in the file at path knows on its line that starts with
 * `head` (the kind and key, up to the count): of names[i], the time t[i] and samples n[i]
 * (-1 and 0 when unknown). Returns the number of sections in the file, 0 when none is fp's,
 * or -1. */
static int read_line(const char *path, uint64_t fp, const char *head,
                     const char *const *names, int count, double *t, long *n)
{
    char why[256], *section = NULL, *text = slurp(path);
    for (int i = 0; i < count; i++) t[i] = -1.0, n[i] = 0;
    if (!text) return -1;
    int sections = ac_history_parse(text, fp, &section, why, sizeof why);
    free(text);
    char *line = section;
    while (line && (line = strstr(line, head)) && line != section && line[-1] != '\n') line++;
    if (line) {
        char *p = line + strlen(head);
        int m = (int)strtol(p, &p, 10);
        for (int j = 0; j < m; j++) {
            char name[64];
            double sec, var;
            long samples;
            int used = 0;
            if (sscanf(p, " %63s %lf %lf %ld%n", name, &sec, &var, &samples, &used) != 4) break;
            p += used;
            for (int i = 0; i < count; i++)
                if (strcmp(name, names[i]) == 0) t[i] = sec, n[i] = samples;
        }
    }
    int have = section != NULL;
    free(section);
    return sections < 0 ? -1 : have ? sections : 0;
}

/* What the file at path knows of k under fingerprint fp (via the parser and a lookup-like
 * scan of the section's lines): samples of each candidate, times in t. */
static int read_back(const char *path, uint64_t fp, const ac_history_key *k, double *t,
                     long *n)
{
    char head[256];
    const char *names[3] = {cands[0]->name, cands[1]->name, cands[2]->name};
    snprintf(head, sizeof head, "context %s %d %llu %d %d %d %016llx ",
             ac_collective_name(k->collective), k->comm_size, k->bytes, k->count, k->op_builtin,
             k->op_commutative, (unsigned long long)k->site);
    return read_line(path, fp, head, names, 3, t, n);
}

static void test_round_trip_and_merge(void)
{
    char path[300], why[256];
    snprintf(path, sizeof path, "%s/rt", dir);
    ac_history_key k = key_of(AC_ALLREDUCE, 1024, 0x1234abcd5678ef90ull);
    double t1[3] = {1.0e-5, 2.5e-5 / 3.0, 0.0}, t[3];
    long n1[3] = {10, 3, 0}, n[3];
    char *l1 = lines(&k, t1, n1);
    CHECK(strstr(l1, "gamma") == NULL); /* unknown candidates are left out */
    CHECK(ac_history_merge_file(path, 0xfeedull, "np=4 test", l1, why, sizeof why) == 0);
    CHECK(read_back(path, 0xfeedull, &k, t, n) == 1);
    CHECK(t[0] == t1[0] && t[1] == t1[1] && n[0] == 10 && n[1] == 3 && n[2] == 0);

    /* the same context again: weighted by min(samples, 64), samples add up; gamma joins */
    double t2[3] = {3.0e-5, 1.0e-5, 4.0e-5};
    long n2[3] = {100, 3, 7};
    char *l2 = lines(&k, t2, n2);
    CHECK(ac_history_merge_file(path, 0xfeedull, "np=4 test", l2, why, sizeof why) == 0);
    CHECK(read_back(path, 0xfeedull, &k, t, n) == 1);
    CHECK(n[0] == 110 && n[1] == 6 && n[2] == 7);
    CHECK(fabs(t[0] - (1.0e-5 * 10 + 3.0e-5 * 64) / 74) < 1e-18);
    CHECK(fabs(t[1] - (t1[1] + t2[1]) / 2) < 1e-18);
    CHECK(t[2] == 4.0e-5);

    /* another platform gets a section of its own; the first is untouched */
    ac_history_key k2 = key_of(AC_BCAST, 8, 0);
    char *l3 = lines(&k2, t1, n1);
    CHECK(ac_history_merge_file(path, 0xbeefull, "np=8 other", l3, why, sizeof why) == 0);
    CHECK(read_back(path, 0xfeedull, &k, t, n) == 2);
    CHECK(n[0] == 110 && n[1] == 6 && n[2] == 7);
    CHECK(read_back(path, 0xbeefull, &k, t, n) == 2 && n[0] == 0); /* k is not in that one */
    CHECK(read_back(path, 0xbeefull, &k2, t, n) == 2 && n[0] == 10 && n[1] == 3);
    CHECK(read_back(path, 0x0bad0bad0bad0badull, &k, t, n) == 0); /* foreign: no section */
    free(l1);
    free(l2);
    free(l3);
}

/* An ADCL request's line for `key` (its kind's record): functions alpha, beta and "bad
 * name" (not a name the format holds) with times t[3] and samples n[3]. */
static char *adcl_line(const char *key, const double *t, const long *n)
{
    static const char *const names[3] = {"alpha", "beta", "bad name"};
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    ac_knowledge know[3];
    for (int i = 0; i < 3; i++) know[i] = (ac_knowledge){t[i], 0, n[i]};
    ac_history_write_record(m, &ac_adcl_history_kind, key, names, 3, know);
    fclose(m);
    return buf;
}

/* What the file at path knows of the ADCL key under fp: times and samples of alpha and beta
 * (t[i] -1, n[i] 0: unknown); returns the number of sections, or -1. */
static int read_adcl(const char *path, uint64_t fp, const char *key, double *t, long *n)
{
    char head[600];
    const char *names[2] = {cands[0]->name, cands[1]->name};
    snprintf(head, sizeof head, "adcl %s ", key);
    return read_line(path, fp, head, names, 2, t, n);
}

/* ADCL requests' lines beside contexts: written, matched by key text, merged like contexts
 * (weights capped), another key kept apart, the contexts untouched, and names the format
 * cannot hold left out. */
static void test_adcl_lines(void)
{
    char path[300], why[256];
    const char *key = "set=neighborhood;np=4;topo=cart:2x2:pp;vec=6x6;nc=0;type=8;halo=1;timer=0";
    const char *other = "set=neighborhood;np=4;topo=cart:2x2:pp;vec=6x6;nc=0;type=8;halo=2;timer=0";
    snprintf(path, sizeof path, "%s/adcl", dir);
    ac_history_key k = key_of(AC_BCAST, 64, 0);
    double tc[3] = {1e-6, 2e-6, 3e-6}, t1[3] = {1e-5, 2e-5, 5e-6}, t2[3] = {3e-5, 4e-5, 0};
    long nc[3] = {5, 5, 5}, n1[3] = {30, 2, 30}, n2[3] = {100, 0, 0}, n[3];
    double t[3];
    char *lc = lines(&k, tc, nc), *l1 = adcl_line(key, t1, n1);
    CHECK(strstr(l1, "bad") == NULL && strncmp(l1, "adcl ", 5) == 0);
    size_t both_len = strlen(lc) + strlen(l1) + 1;
    char *both = malloc(both_len);
    snprintf(both, both_len, "%s%s", lc, l1);
    CHECK(ac_history_merge_file(path, 0xfeedull, "np=4 test", both, why, sizeof why) == 0);
    CHECK(read_adcl(path, 0xfeedull, key, t, n) == 1);
    CHECK(t[0] == t1[0] && t[1] == t1[1] && n[0] == 30 && n[1] == 2);
    char *l2 = adcl_line(key, t2, n2), *l3 = adcl_line(other, t2, n2);
    CHECK(ac_history_merge_file(path, 0xfeedull, "np=4 test", l2, why, sizeof why) == 0);
    CHECK(ac_history_merge_file(path, 0xfeedull, "np=4 test", l3, why, sizeof why) == 0);
    CHECK(read_adcl(path, 0xfeedull, key, t, n) == 1);
    CHECK(n[0] == 130 && n[1] == 2);
    CHECK(fabs(t[0] - (1e-5 * 30 + 3e-5 * 64) / 94) < 1e-18);
    CHECK(t[1] == t1[1]);
    CHECK(read_adcl(path, 0xfeedull, other, t, n) == 1 && n[0] == 100 && n[1] == 0);
    CHECK(read_back(path, 0xfeedull, &k, t, n) == 1 && n[0] == 5 && t[0] == tc[0]);
    /* an invalid key writes nothing */
    char *none = adcl_line("a key with blanks", t1, n1);
    CHECK(none[0] == '\0');
    free(none);
    free(lc);
    free(l1);
    free(l2);
    free(l3);
    free(both);
}

/* The model line of values v[] and weights w[] (ac_model_write_learned: the model strategy's
 * record, ac_history_write_record). */
static char *model_line(const double *v, const double *w)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    ac_model_write_learned(m, v, w);
    fclose(m);
    return buf;
}

/* What the file at path knows of the model's parameters under fp (values v, samples n; -1 and
 * 0 when unknown); returns the number of sections, or -1. */
static int read_model(const char *path, uint64_t fp, double *v, long *n)
{
    const char *names[AC_COST_PARAMS];
    for (int j = 0; j < AC_COST_PARAMS; j++) names[j] = ac_cost_param_name(j);
    return read_line(path, fp, "model ", names, AC_COST_PARAMS, v, n);
}

/* The model strategy's parameters: one line a section, parameters by their cost.h names, a
 * weight below 0.5 left out and the others rounded to samples, merged like candidates (weights
 * capped), beside a context that stays as it was. */
static void test_model_lines(void)
{
    char path[300], why[256];
    snprintf(path, sizeof path, "%s/model", dir);
    double v1[AC_COST_PARAMS] = {1e-6, 1e-10, 5e-6, 1e-9, 5e-10, 1e-7};
    double w1[AC_COST_PARAMS] = {10.4, 0.2, 3.6, 0.49, 0.0, 2.0};
    double v2[AC_COST_PARAMS] = {3e-6, 2e-10, 7e-6, 3e-9, 1e-9, 3e-7};
    double w2[AC_COST_PARAMS] = {100.0, 4.0, 0.0, 0.0, 0.0, 0.0};
    double v[AC_COST_PARAMS], tc[3] = {1e-6, 2e-6, 3e-6}, t[3];
    long n[AC_COST_PARAMS], nc[3] = {5, 5, 5}, nb[3];
    ac_history_key k = key_of(AC_ALLREDUCE, 8, 0);
    char *l1 = model_line(v1, w1), *lc = lines(&k, tc, nc);
    CHECK(strncmp(l1, "model 3 ", 8) == 0);
    size_t both_len = strlen(lc) + strlen(l1) + 1;
    char *both = malloc(both_len);
    snprintf(both, both_len, "%s%s", lc, l1);
    CHECK(ac_history_merge_file(path, 0xfeedull, "np=4 test", both, why, sizeof why) == 0);
    CHECK(read_model(path, 0xfeedull, v, n) == 1);
    CHECK(v[AC_COST_ALPHA_INTRA] == v1[0] && n[AC_COST_ALPHA_INTRA] == 10);
    CHECK(v[AC_COST_ALPHA_INTER] == v1[2] && n[AC_COST_ALPHA_INTER] == 4);
    CHECK(v[AC_COST_OVERHEAD] == v1[5] && n[AC_COST_OVERHEAD] == 2);
    CHECK(n[AC_COST_BETA_INTRA] == 0 && n[AC_COST_BETA_INTER] == 0 && n[AC_COST_GAMMA] == 0);
    /* a second run: merged by min(samples, 64), one line still */
    char *l2 = model_line(v2, w2);
    CHECK(ac_history_merge_file(path, 0xfeedull, "np=4 test", l2, why, sizeof why) == 0);
    CHECK(read_model(path, 0xfeedull, v, n) == 1);
    CHECK(n[AC_COST_ALPHA_INTRA] == 110);
    CHECK(fabs(v[AC_COST_ALPHA_INTRA] - (1e-6 * 10 + 3e-6 * 64) / 74) < 1e-18);
    CHECK(v[AC_COST_BETA_INTRA] == v2[1] && n[AC_COST_BETA_INTRA] == 4);
    CHECK(v[AC_COST_ALPHA_INTER] == v1[2] && n[AC_COST_ALPHA_INTER] == 4);
    CHECK(read_back(path, 0xfeedull, &k, t, nb) == 1 && nb[0] == 5 && t[0] == tc[0]);
    /* nothing learned: no line */
    double zero[AC_COST_PARAMS] = {0};
    char *none = model_line(v1, zero);
    CHECK(none[0] == '\0');
    free(none);
    free(l1);
    free(l2);
    free(lc);
    free(both);
}

static void test_refuses_what_does_not_parse(void)
{
    static const struct {
        const char *name, *text;
        size_t len; /* 0: strlen */
    } bad[] = {
        {"garbage", "hello world\n", 0},
        {"format 2", "autocoll-history 2\n", 0},
        {"context before platform", "autocoll-history 1\ncontext allreduce 4 8 1 1 1 "
                                    "0000000000000000 1 alpha 1e-05 0 3\n",
         0},
        {"truncated line", "autocoll-history 1\nplatform 000000000000feed x\ncontext allreduce "
                           "4 8 1 1 1 0000000000000000 2 alpha 1e-05 0 3 beta\n",
         0},
        {"unknown collective", "autocoll-history 1\nplatform 000000000000feed x\ncontext "
                               "allfoo 4 8 1 1 1 0000000000000000 1 alpha 1e-05 0 3\n",
         0},
        {"negative time", "autocoll-history 1\nplatform 000000000000feed x\ncontext allreduce "
                          "4 8 1 1 1 0000000000000000 1 alpha -1e-05 0 3\n",
         0},
        {"NUL byte", "autocoll-history 1\n\0platform", 28},
        {"adcl line without a key", "autocoll-history 1\nplatform 000000000000feed x\nadcl 1 "
                                    "alpha 1e-05 0 3\n",
         0},
        {"adcl line before platform", "autocoll-history 1\nadcl set=x 1 alpha 1e-05 0 3\n", 0},
        {"model line before platform", "autocoll-history 1\nmodel 1 gamma 1e-10 0 3\n", 0},
        {"model line with a negative value", "autocoll-history 1\nplatform 000000000000feed x\n"
                                             "model 1 gamma -1e-10 0 3\n",
         0},
    };
    char path[300], why[256];
    snprintf(path, sizeof path, "%s/bad", dir);
    ac_history_key k = key_of(AC_ALLREDUCE, 8, 0);
    double t[3] = {1e-6, 2e-6, 3e-6};
    long n[3] = {3, 3, 3};
    char *l = lines(&k, t, n);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t len = bad[i].len ? bad[i].len : strlen(bad[i].text);
        spit(path, bad[i].text, len);
        why[0] = '\0';
        int rc = ac_history_merge_file(path, 0xfeedull, "np=4 test", l, why, sizeof why);
        if (rc != -1 || !why[0]) fprintf(stderr, "case %s: rc %d, why '%s'\n", bad[i].name, rc, why);
        CHECK(rc == -1 && why[0]);
        char *after = slurp(path);
        CHECK(memcmp(after, bad[i].text, len) == 0); /* left as it was */
        free(after);
    }
    /* a directory where the file should be, and a path in a missing directory */
    unlink(path);
    mkdir(path, 0755);
    CHECK(ac_history_merge_file(path, 0xfeedull, "np=4 test", l, why, sizeof why) == -1);
    rmdir(path);
    snprintf(path, sizeof path, "%s/missing/dir/h", dir);
    CHECK(ac_history_merge_file(path, 0xfeedull, "np=4 test", l, why, sizeof why) == -1);
    free(l);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A writer waits while another process holds the lock. */
static void test_lock_is_honoured(void)
{
    char path[300], lock[320], why[256];
    snprintf(path, sizeof path, "%s/locked", dir);
    snprintf(lock, sizeof lock, "%s.lock", path);
    int fd = open(lock, O_RDWR | O_CREAT, 0644);
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    CHECK(fcntl(fd, F_SETLK, &fl) == 0);
    int pipefd[2];
    CHECK(pipe(pipefd) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        ac_history_key k = key_of(AC_ALLREDUCE, 8, 0);
        double t[3] = {1e-6, 2e-6, 3e-6}, start = now();
        long n[3] = {3, 3, 3};
        int rc = ac_history_merge_file(path, 0xfeedull, "x", lines(&k, t, n), why, sizeof why);
        double waited = now() - start;
        if (write(pipefd[1], &waited, sizeof waited) != sizeof waited) _exit(3);
        _exit(rc == 0 ? 0 : 2);
    }
    struct timespec hold = {0, 400 * 1000 * 1000};
    nanosleep(&hold, NULL);
    CHECK(access(path, F_OK) != 0); /* not written while the lock is held */
    fl.l_type = F_UNLCK;
    fcntl(fd, F_SETLK, &fl);
    int status = 0;
    waitpid(pid, &status, 0);
    double waited = 0.0;
    CHECK(read(pipefd[0], &waited, sizeof waited) == sizeof waited);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(waited >= 0.35);
    CHECK(access(path, F_OK) == 0);
    close(fd);
    close(pipefd[0]);
    close(pipefd[1]);
}

enum { WRITERS = 8, ROUNDS = 25 };

/* WRITERS processes merge ROUNDS times each: a context of their own (samples 1 per round) and
 * one they share; nothing may be lost. */
static void test_concurrent_writers(void)
{
    char path[300], why[256];
    snprintf(path, sizeof path, "%s/shared", dir);
    pid_t pids[WRITERS];
    for (int w = 0; w < WRITERS; w++) {
        if ((pids[w] = fork()) != 0) continue;
        for (int r = 0; r < ROUNDS; r++) {
            ac_history_key own = key_of(AC_ALLGATHER, 64, (uint64_t)(w + 1)),
                           shared = key_of(AC_ALLTOALL, 1024, 0);
            double t[3] = {1e-6 * (w + 1), 2e-6, 3e-6};
            long n[3] = {1, 1, 0};
            char *a = lines(&own, t, n), *b = lines(&shared, t, n);
            size_t la = strlen(a), lb = strlen(b);
            char *both = malloc(la + lb + 1);
            memcpy(both, a, la);
            memcpy(both + la, b, lb + 1);
            if (ac_history_merge_file(path, 0xfeedull, "np=4 test", both, why, sizeof why)) {
                fprintf(stderr, "writer %d: %s\n", w, why);
                _exit(1);
            }
            free(a);
            free(b);
            free(both);
        }
        _exit(0);
    }
    for (int w = 0; w < WRITERS; w++) {
        int status = 0;
        waitpid(pids[w], &status, 0);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    double t[3];
    long n[3];
    for (int w = 0; w < WRITERS; w++) {
        ac_history_key own = key_of(AC_ALLGATHER, 64, (uint64_t)(w + 1));
        CHECK(read_back(path, 0xfeedull, &own, t, n) == 1);
        CHECK(n[0] == ROUNDS && n[1] == ROUNDS && n[2] == 0);
        CHECK(fabs(t[0] - 1e-6 * (w + 1)) < 1e-15);
    }
    ac_history_key shared = key_of(AC_ALLTOALL, 1024, 0);
    CHECK(read_back(path, 0xfeedull, &shared, t, n) == 1);
    CHECK(n[0] == WRITERS * ROUNDS && n[1] == WRITERS * ROUNDS);
    /* no temporary file left */
    DIR *d = opendir(dir);
    struct dirent *e;
    while ((e = readdir(d)))
        if (strstr(e->d_name, ".tmp.")) {
            fprintf(stderr, "left behind: %s\n", e->d_name);
            CHECK(0);
        }
    closedir(d);
}

/* np host names of MPI_MAX_PROCESSOR_NAME bytes from a list. */
static char *host_array(const char *const *names, int np)
{
    char *hosts = calloc((size_t)np, MPI_MAX_PROCESSOR_NAME);
    for (int i = 0; i < np; i++)
        snprintf(hosts + (size_t)i * MPI_MAX_PROCESSOR_NAME, MPI_MAX_PROCESSOR_NAME, "%s",
                 names[i]);
    return hosts;
}

static uint64_t platform_of(const char *const *names, int np, const char *network, char *desc)
{
    char *hosts = host_array(names, np);
    uint64_t f = ac_history_platform(hosts, np, network, "Open MPI v4.1.4", desc, 512);
    free(hosts);
    return f;
}

/* The platform key: two allocations of one cluster (other host numbers, same shape) share it;
 * another shape, another cluster, another library or AUTOCOLL_PLATFORM make another one. */
static void test_platform_key(void)
{
    char d1[512], d2[512], d3[512];
    const char *const alloc1[4] = {"node017", "node017", "node112", "node112"};
    const char *const alloc2[4] = {"node203", "node004", "node004", "node203"};
    const char *const shape[4] = {"node203", "node004", "node005", "node206"};
    const char *const other[4] = {"cn-1-7", "cn-1-7", "cn-2-1", "cn-2-1"};
    uint64_t f1 = platform_of(alloc1, 4, "auto", d1), f2 = platform_of(alloc2, 4, "auto", d2);
    CHECK(f1 == f2);
    CHECK(strcmp(d1, d2) == 0);
    CHECK(strstr(d1, "np=4 nodes=2 ppn=2 ") != NULL);
    CHECK(strstr(d1, "network=node#") != NULL);
    CHECK(strstr(d1, "node017") == NULL); /* no host name in the key */
    CHECK(platform_of(shape, 4, "auto", d3) != f1); /* 4 nodes x 1 */
    CHECK(strstr(d3, "nodes=4 ppn=1") != NULL);
    CHECK(platform_of(other, 4, "auto", d3) != f1);
    CHECK(strstr(d3, "network=cn-#-#") != NULL);
    /* a named platform: shared across host names, distinct from the auto key */
    uint64_t n1 = platform_of(alloc1, 4, "clusterA", d1), n2 = platform_of(other, 4, "clusterA", d2);
    CHECK(n1 == n2 && n1 != f1);
    CHECK(strstr(d1, "network=clusterA") != NULL);
    CHECK(platform_of(alloc1, 4, "clusterB", d3) != n1);
    /* the library is part of the key */
    char *hosts = host_array(alloc1, 4);
    CHECK(ac_history_platform(hosts, 4, "auto", "MPICH Version: 4.0.2", d3, sizeof d3) != f1);
    free(hosts);
}

/* Many records, through the store's index: every key found, the repeated ones merged, the
 * section's lines as the file has them, the records as bytes and back (what rank 0 broadcasts
 * at MPI_Init); a line that names a candidate twice is refused. */
static void test_many_records(void)
{
    static const ac_store_kind kind = {"context", 7, NULL}; /* keys as written */
    enum { N = 3000 };
    size_t size = 200 * (2 * N + 4), used = 0;
    char *text = malloc(size), *section = NULL, why[256] = "", key[128];
    if (!CHECK(text != NULL)) return;
    used += (size_t)snprintf(text, size, "autocoll-history 1\nplatform 000000000000feed x\n");
    for (int i = 0; i < N; i++)
        used += (size_t)snprintf(text + used, size - used,
                                 "context allreduce 4 %d 1 1 1 0000000000000000 1 ring 1e-06 0 2\n",
                                 8 * (i + 1));
    for (int i = 0; i < N; i += 7) /* again: ring merged, native added */
        used += (size_t)snprintf(text + used, size - used,
                                 "context allreduce 4 %d 1 1 1 0000000000000000 2 native 5e-06 0 "
                                 "1 ring 3e-06 0 2\n",
                                 8 * (i + 1));
    snprintf(text + used, size - used, "platform 000000000000beef y\n");
    const ac_store_kind *kinds[] = {&kind};
    ac_store_records *read = NULL, *r = NULL;
    CHECK(ac_store_section(text, 0xfeedull, kinds, 1, &section, why, sizeof why) == 2);
    CHECK(section && strncmp(section, "context allreduce 4 8 1", 23) == 0 &&
          !strstr(section, "platform"));
    CHECK(ac_store_load(text, 0xfeedull, kinds, 1, &read, why, sizeof why) == 2 && read);
    char *bytes = NULL;
    size_t len = read ? ac_store_pack(read, kinds, 1, &bytes) : 0;
    ac_store_records *cut = NULL;
    CHECK(len > 0 && ac_store_unpack(bytes, len - 1, kinds, 1, &cut) == -1 && cut == NULL);
    CHECK(len > 0 && ac_store_unpack(bytes, len, kinds, 1, &r) == 0);
    free(bytes);
    ac_store_records_free(read);
    const char *names[2] = {"ring", "native"};
    int good = 1;
    for (int i = 0; r && i < N; i++) {
        ac_knowledge know[2];
        snprintf(key, sizeof key, "allreduce 4 %d 1 1 1 0000000000000000", 8 * (i + 1));
        int known = ac_store_lookup(r, &kind, key, names, 2, know);
        if (i % 7 == 0)
            good &= known == 2 && fabs(know[0].seconds - 2e-6) < 1e-12 &&
                    know[0].samples == 4 && know[1].samples == 1 && know[1].seconds == 5e-6;
        else
            good &= known == 1 && know[0].seconds == 1e-6 && know[0].samples == 2;
    }
    CHECK(r && good);
    ac_knowledge none[2];
    CHECK(ac_store_lookup(r, &kind, "allreduce 4 9 1 1 1 0000000000000000", names, 2, none) ==
          0);
    ac_store_records_free(r);
    free(section);
    static const char twice[] = "autocoll-history 1\nplatform 000000000000feed x\n"
                                "context allreduce 4 8 1 1 1 0000000000000000 3 ring 1e-06 0 2 "
                                "native 1e-06 0 2 ring 2e-06 0 2\n";
    r = NULL;
    CHECK(ac_store_load(twice, 0xfeedull, kinds, 1, &r, why, sizeof why) == -1 && r == NULL &&
          strstr(why, "line 3: a bad context line"));
    /* a long line: 20 names, then the same with its last name the 6th again */
    for (int repeat = 0; repeat < 2; repeat++) {
        used = (size_t)snprintf(text, size, "autocoll-history 1\nplatform 000000000000feed x\n"
                                            "context allreduce 4 8 1 1 1 0000000000000000 20");
        for (int i = 0; i < 20; i++)
            used += (size_t)snprintf(text + used, size - used, " c%d 1e-06 0 1",
                                     repeat && i == 19 ? 5 : i);
        r = NULL;
        int rc = ac_store_load(text, 0xfeedull, kinds, 1, &r, why, sizeof why);
        CHECK(repeat ? rc == -1 && r == NULL : rc == 1 && r != NULL);
        ac_store_records_free(r);
    }
    free(text);
}

int main(void)
{
    ac_adcl_history_declare(); /* as MPI_Init does: the file's request lines */
    snprintf(dir, sizeof dir, "%s/autocoll-history-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_round_trip_and_merge();
    test_adcl_lines();
    test_model_lines();
    test_refuses_what_does_not_parse();
    test_lock_is_honoured();
    test_concurrent_writers();
    test_platform_key();
    test_many_records();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    if (failures) fprintf(stderr, "test_history: %d failed checks\n", failures);
    else printf("test_history: ok\n");
    return failures != 0;
}
