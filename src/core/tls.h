/*
 * tls.h - the layer's thread-local variables.
 *
 * A real build is preloaded or linked, so loaded at the program's start: there the
 * initial-exec model makes an access one load from the thread pointer, where the default model
 * of a shared library calls __tls_get_addr on every access (once per settled call in
 * ac_comm_enter). A library opened later with dlopen still gets its few bytes from glibc's
 * static TLS reserve. Under SMPI, where each rank may open its own copy of the library, the
 * default model.
 */
#ifndef AUTOCOLL_TLS_H
#define AUTOCOLL_TLS_H

#if AUTOCOLL_SIMULATED || !defined(__GNUC__)
#define AC_THREAD_LOCAL _Thread_local
#else
#define AC_THREAD_LOCAL _Thread_local __attribute__((tls_model("initial-exec")))
#endif

#endif
