/*
 * textfile.h - reading a whole text file the layer was pointed at (the history file, the
 * configuration table).
 */
#ifndef AUTOCOLL_TEXTFILE_H
#define AUTOCOLL_TEXTFILE_H

/* The whole file in a malloc'd NUL-terminated string; NULL with errno: ENOENT (missing),
 * EISDIR (not a regular file), EFBIG (larger than max_bytes), EILSEQ (a NUL inside: not text),
 * EIO, ENOMEM, or fopen's. */
char *ac_read_text_file(const char *path, long max_bytes);

#endif
