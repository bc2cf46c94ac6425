/*
 * textfile.c - reading a whole text file (textfile.h).
 */
#include "core/textfile.h"
#include "core/safefile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *ac_read_text_file(const char *path, long max_bytes)
{
    int fd = ac_open_regular(path); /* never blocks on a FIFO */
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int e = errno;
        close(fd);
        errno = e;
        return NULL;
    }
    struct stat st;
    int e = fstat(fileno(f), &st) != 0 ? errno : st.st_size > max_bytes ? EFBIG : 0;
    if (e) {
        fclose(f);
        errno = e;
        return NULL;
    }
    char *buf = malloc((size_t)st.st_size + 1);
    size_t len = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
    e = ferror(f) ? EIO : ENOMEM;
    fclose(f);
    if (!buf || (long)len != (long)st.st_size) {
        free(buf);
        errno = e;
        return NULL;
    }
    buf[len] = '\0';
    if (strlen(buf) != len) { /* a NUL inside: not text */
        free(buf);
        errno = EILSEQ;
        return NULL;
    }
    return buf;
}

int ac_why_printf(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (why && len) vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return -1;
}
