/*
 * log.h - messages to stderr, prefixed "autocoll[rank]:", filtered by AUTOCOLL_VERBOSE.
 */
#ifndef AUTOCOLL_LOG_H
#define AUTOCOLL_LOG_H

void ac_log_set_level(int level);
void ac_log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ac_log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ac_log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
