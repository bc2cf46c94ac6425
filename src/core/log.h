/*
 * log.h - messages to stderr, prefixed "autocoll[rank]:", filtered by AUTOCOLL_VERBOSE.
 */
#ifndef AUTOCOLL_LOG_H
#define AUTOCOLL_LOG_H

void ac_log_set_level(int level);
void ac_log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ac_log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ac_log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* End the run with MPI_Abort(MPI_COMM_WORLD, rc) after an error message, a moment later: a
 * launcher may stop the job at the abort before it has forwarded this rank's last output
 * (MPICH's Hydra lost the message about one time in five). */
void ac_log_abort(int rc) __attribute__((noreturn));

#endif
