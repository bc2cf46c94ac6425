/*
 * safefile.h - opening and replacing the files a user names (the history file, the
 * configuration table, the JSON report) as a careful daemon does: no open that can block, no
 * write through a link someone else planted, the file's mode and group kept, a file its owner
 * made read-only left alone.
 */
#ifndef AUTOCOLL_SAFEFILE_H
#define AUTOCOLL_SAFEFILE_H

#include <limits.h>
#include <stdio.h>
#include <sys/types.h>

/* A read-only descriptor of path, or -1 with errno. Opened without blocking (a FIFO, a device
 * or a socket is refused, never waited on: errno EINVAL; a directory: EISDIR), then set back to
 * blocking reads. */
int ac_open_regular(const char *path);

/* What errno of ac_open_regular or ac_read_text_file means, in words. */
const char *ac_file_error(int err);

/* A file being replaced: written to a temporary file made with mkstemp beside its final
 * path, then renamed over it. */
typedef struct ac_file_writer {
    char final[PATH_MAX]; /* the path resolved: a symbolic link's target, not the link */
    char tmp[PATH_MAX];
    FILE *f; /* write the content here */
} ac_file_writer;

/* The path a write of `path` replaces, into out[PATH_MAX]: a symbolic link's final target (the
 * link stays and its target is updated, or created where it does not exist yet), or path
 * itself while it does not exist. 0, or -1 with the reason (a loop of links, too long). */
int ac_file_resolve(const char *path, char *out, char *why, size_t why_len);

/* Whether this process may replace path: 0, or -1 with the reason in why (a directory, a FIFO
 * or device, a dangling link, a file whose mode gives this user no write permission — checked
 * on the mode bits, so that root too leaves a read-only file alone —, a folder it cannot
 * create files in). A path that does not exist yet may be created when its folder allows. */
int ac_file_check_writable(const char *path, char *why, size_t why_len);

/* Starts replacing path (ac_file_check_writable first): 0 with w->f open, or -1 with the
 * reason. The temporary file is named <final>.tmp.<host>.<pid>.XXXXXX and created exclusively
 * (never through an existing name); it takes the existing file's mode and group, or for a new
 * file 0666 less the umask. Temporary files of this host's dead processes beside it are
 * removed. */
int ac_file_begin(ac_file_writer *w, const char *path, char *why, size_t why_len);

/* Flushes, syncs and renames the temporary file over the final path: 0, or -1 with the reason
 * (the temporary file is removed). */
int ac_file_commit(ac_file_writer *w, char *why, size_t why_len);

/* Gives the replacement up: the temporary file is closed and removed. */
void ac_file_abort(ac_file_writer *w);

#endif
