/*
 * autocoll.h - public C API of autocoll.
 *
 * Most programs need nothing from here: the layer works through the MPI profiling interface
 * (LD_PRELOAD=libautocoll.so, or link -lautocoll before the MPI library) and is configured by
 * AUTOCOLL_* environment variables (`autocoll-info` lists them).
 */
#ifndef AUTOCOLL_H
#define AUTOCOLL_H

#define AUTOCOLL_VERSION_MAJOR 0
#define AUTOCOLL_VERSION_MINOR 1
#define AUTOCOLL_VERSION_PATCH 0

#endif
