/*
 * safefile.c - opening and replacing the files a user names (safefile.h). mkostemp is a GNU
 * extension: the build defines _GNU_SOURCE.
 */
#include "core/safefile.h"
#include "core/textfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ac_open_regular(const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat st;
    int e = fstat(fd, &st) != 0 ? errno
            : S_ISDIR(st.st_mode) ? EISDIR
            : !S_ISREG(st.st_mode) ? EINVAL
                                   : 0;
    int flags = e ? 0 : fcntl(fd, F_GETFL);
    if (!e && (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)) e = errno;
    if (e) {
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

const char *ac_file_error(int err)
{
    switch (err) {
    case EISDIR: return "a directory";
    case EINVAL: return "not a regular file (a FIFO, a device or a socket)";
    case EILSEQ: return "not a text file";
    case EFBIG: return "too large";
    default: return strerror(err);
    }
}

/* The folder of path into dir[PATH_MAX] and its last component into *base. */
static void split_path(const char *path, char *dir, const char **base)
{
    const char *slash = strrchr(path, '/');
    *base = slash ? slash + 1 : path;
    if (!slash)
        strcpy(dir, ".");
    else if (slash == path)
        strcpy(dir, "/");
    else
        snprintf(dir, PATH_MAX, "%.*s", (int)(slash - path), path);
}

int ac_file_resolve(const char *path, char *out, char *why, size_t why_len)
{
    char cur[PATH_MAX], link[PATH_MAX];
    if (realpath(path, out)) return 0;
    if (errno != ENOENT) return ac_why_printf(why, why_len, "%s", strerror(errno));
    if (strlen(path) >= PATH_MAX) return ac_why_printf(why, why_len, "the path is too long");
    strcpy(cur, path);
    /* a missing file, or a link to one (the file the link names is created): follow the links
     * by hand as far as they go */
    for (int hops = 0;; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) break;
        if (hops == 40) return ac_why_printf(why, why_len, "%s", strerror(ELOOP));
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0) return ac_why_printf(why, why_len, "%s", strerror(errno));
        link[n] = '\0';
        if (link[0] == '/') {
            strcpy(cur, link);
        } else { /* relative to the link's folder */
            char dir[PATH_MAX];
            const char *base;
            split_path(cur, dir, &base);
            if (snprintf(cur, sizeof cur, "%s/%s", dir, link) >= (int)sizeof cur)
                return ac_why_printf(why, why_len, "the path is too long");
        }
    }
    strcpy(out, cur);
    return 0;
}

/* Whether the mode bits of st give this process write permission (root included: a file made
 * read-only stays unwritten). */
static int mode_writable(const struct stat *st)
{
    if (st->st_uid == geteuid()) return (st->st_mode & S_IWUSR) != 0;
    int in_group = st->st_gid == getegid();
    gid_t groups[256];
    int n = getgroups(256, groups);
    for (int i = 0; i < n && !in_group; i++) in_group = groups[i] == st->st_gid;
    return (st->st_mode & (in_group ? S_IWGRP : S_IWOTH)) != 0;
}

static int check_final(const char *final, struct stat *st, int *exists, char *why, size_t why_len)
{
    char dir[PATH_MAX];
    const char *base;
    *exists = stat(final, st) == 0;
    if (*exists) {
        if (!S_ISREG(st->st_mode))
            return ac_why_printf(why, why_len, "%s",
                                 ac_file_error(S_ISDIR(st->st_mode) ? EISDIR : EINVAL));
        if (!mode_writable(st)) {
            ac_why_printf(why, why_len, "its mode %04o does not let this user write it",
                     (unsigned)(st->st_mode & 07777));
            return -1;
        }
    }
    split_path(final, dir, &base);
    if (access(dir, W_OK | X_OK) != 0) {
        ac_why_printf(why, why_len, "cannot create files in %s: %s", dir, strerror(errno));
        return -1;
    }
    return 0;
}

int ac_file_check_writable(const char *path, char *why, size_t why_len)
{
    char final[PATH_MAX];
    struct stat st;
    int exists;
    if (ac_file_resolve(path, final, why, why_len) != 0) return -1;
    return check_final(final, &st, &exists, why, why_len);
}

/* Removes temporary files of base in dir left by this host's processes that no longer run
 * (a job killed while writing). Only regular files of this user are touched. */
static void remove_stale(const char *dir, const char *base, const char *host)
{
    char prefix[PATH_MAX];
    int plen = snprintf(prefix, sizeof prefix, "%s.tmp.%s.", base, host);
    if (plen <= 0 || plen >= (int)sizeof prefix) return;
    DIR *d = opendir(dir);
    if (!d) return;
    for (struct dirent *e; (e = readdir(d));) {
        if (strncmp(e->d_name, prefix, (size_t)plen) != 0) continue;
        char *end;
        long pid = strtol(e->d_name + plen, &end, 10);
        if (pid <= 0 || (*end != '.' && *end != '\0') || pid == (long)getpid()) continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
        char file[PATH_MAX];
        struct stat st;
        if (snprintf(file, sizeof file, "%s/%s", dir, e->d_name) >= (int)sizeof file) continue;
        if (lstat(file, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid())
            unlink(file);
    }
    closedir(d);
}

/* 0666 less the process's umask, read without changing it (Linux: /proc/self/status). */
static mode_t new_file_mode(void)
{
    mode_t mask = 022;
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f)) {
        unsigned m;
        if (sscanf(line, "Umask: %o", &m) == 1) {
            mask = (mode_t)m;
            found = 1;
        }
    }
    if (f) fclose(f);
    if (!found) {
        mask = umask(022);
        umask(mask);
    }
    return 0666 & ~mask;
}

int ac_file_begin(ac_file_writer *w, const char *path, char *why, size_t why_len)
{
    char dir[PATH_MAX], host[64] = "host";
    const char *base;
    struct stat st;
    int exists;
    memset(w, 0, sizeof *w);
    if (ac_file_resolve(path, w->final, why, why_len) != 0 ||
        check_final(w->final, &st, &exists, why, why_len) != 0)
        return -1;
    gethostname(host, sizeof host - 1);
    host[sizeof host - 1] = '\0';
    for (char *c = host; *c; c++)
        if (*c == '/' || *c == '.') *c = '_';
    split_path(w->final, dir, &base);
    remove_stale(dir, base, host);
    if (snprintf(w->tmp, sizeof w->tmp, "%s.tmp.%s.%ld.XXXXXX", w->final, host,
                 (long)getpid()) >= (int)sizeof w->tmp) {
        ac_why_printf(why, why_len, "the path is too long");
        return -1;
    }
    int fd = mkostemp(w->tmp, O_CLOEXEC);
    if (fd < 0) {
        ac_why_printf(why, why_len, "cannot create a file beside it: %s", strerror(errno));
        return -1;
    }
    if (exists) {
        /* its group (a member may give a file its group; where this user is not one, the
         * file takes the user's group and keeps its mode) */
        if (fchown(fd, (uid_t)-1, st.st_gid) != 0) errno = 0;
        if (fchmod(fd, st.st_mode & 07777) != 0) errno = 0;
    } else {
        if (fchmod(fd, new_file_mode()) != 0) errno = 0;
    }
    if (!(w->f = fdopen(fd, "w"))) {
        ac_why_printf(why, why_len, "%s", strerror(errno));
        close(fd);
        unlink(w->tmp);
        return -1;
    }
    return 0;
}

int ac_file_commit(ac_file_writer *w, char *why, size_t why_len)
{
    int failed = fflush(w->f) != 0 || ferror(w->f) || fsync(fileno(w->f)) != 0;
    int e = errno;
    failed |= fclose(w->f) != 0;
    w->f = NULL;
    if (failed || rename(w->tmp, w->final) != 0) {
        if (!failed) e = errno;
        ac_why_printf(why, why_len, "cannot write it: %s", strerror(e ? e : EIO));
        unlink(w->tmp);
        return -1;
    }
    return 0;
}

void ac_file_abort(ac_file_writer *w)
{
    if (w->f) fclose(w->f);
    w->f = NULL;
    unlink(w->tmp);
}
