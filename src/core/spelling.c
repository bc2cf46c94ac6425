/*
 * spelling.c - edit distance between names (optimal string alignment), for suggestions.
 */
#include "core/spelling.h"

#include <ctype.h>
#include <limits.h>
#include <string.h>

enum { LONGEST = 64 };

static int min3(int a, int b, int c)
{
    int m = a < b ? a : b;
    return m < c ? m : c;
}

int ac_spelling_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    int d[LONGEST + 1][LONGEST + 1];
    if (n > LONGEST || m > LONGEST) return INT_MAX;
    for (size_t i = 0; i <= n; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
            d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + !same);
            if (i > 1 && j > 1 &&
                tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) &&
                d[i - 2][j - 2] + 1 < d[i][j])
                d[i][j] = d[i - 2][j - 2] + 1;
        }
    return d[n][m];
}

int ac_spelling_close(const char *typed, const char *name)
{
    size_t n = strlen(name);
    int limit = n <= 6 ? 1 : n <= 10 ? 2 : 3;
    int d = ac_spelling_distance(typed, name);
    return d <= limit && (size_t)d < n;
}
