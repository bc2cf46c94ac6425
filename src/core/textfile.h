/*
 * textfile.h - reading a whole text file the layer was pointed at (the history file, the
 * configuration table).
 */
#ifndef AUTOCOLL_TEXTFILE_H
#define AUTOCOLL_TEXTFILE_H

#include <stddef.h>

/* The whole file in a malloc'd NUL-terminated string; NULL with errno: ENOENT (missing),
 * EISDIR (a directory), EINVAL (a FIFO, device or socket: opened without blocking and refused),
 * EFBIG (larger than max_bytes), EILSEQ (a NUL inside: not text), EIO, ENOMEM, or open's.
 * ac_file_error (safefile.h) says each in words. */
char *ac_read_text_file(const char *path, long max_bytes);

/* Writes the reason a file was refused into why[len] (nothing when why is NULL or len 0) and
 * returns -1, the readers' failure value. */
int ac_why_printf(char *why, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
