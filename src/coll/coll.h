/*
 * coll.h - the algorithm registry: collectives, requirement flags, parameters, entries.
 *
 * Every algorithm has the MPI signature of its collective, called on the communicator's
 * private duplicate, plus a trailing `const ac_params *` (may be NULL = defaults). Algorithms
 * must accept MPI_IN_PLACE where MPI allows it, any datatype (derived, with lower bounds and
 * gaps), and zero counts. A restriction an algorithm cannot lift is declared in its registry
 * entry's `requires` flags; ac_applicable() checks them, in one place (registry.c's table of
 * requirements), before anything runs.
 */
#ifndef AUTOCOLL_COLL_H
#define AUTOCOLL_COLL_H

#include <mpi.h>
#include <stddef.h>

typedef enum ac_collective {
    AC_ALLGATHER,
    AC_ALLGATHERV,
    AC_ALLREDUCE,
    AC_ALLTOALL,
    AC_ALLTOALLV,
    AC_BARRIER,
    AC_BCAST,
    AC_GATHER,
    AC_REDUCE,
    AC_REDUCE_SCATTER,
    AC_REDUCE_SCATTER_BLOCK,
    AC_SCATTER,
    AC_NEIGHBOR_ALLGATHER, /* the MPI-3 neighbourhood collectives (src/coll/common/neighbor.h) */
    AC_NEIGHBOR_ALLGATHERV,
    AC_NEIGHBOR_ALLTOALL,
    AC_NEIGHBOR_ALLTOALLV,
    AC_NEIGHBOR_ALLTOALLW,
    AC_NUM_COLLECTIVES
} ac_collective;

/* Requirements. Each one depends only on values that MPI requires to be equal on every rank
 * (communicator size, op, reduction count, message size from the type signature), so every rank
 * reaches the same verdict. */
enum {
    AC_REQ_POWER_OF_TWO = 1u << 0, /* communicator size is a power of two */
    AC_REQ_COMMUTATIVE = 1u << 1,  /* op is commutative (built-in, or declared so) */
    AC_REQ_BUILTIN_OP = 1u << 2,   /* op is a predefined MPI op */
    AC_REQ_COUNT_GE_SIZE = 1u << 3, /* reduction count >= communicator size */
    AC_REQ_MESH_LAYOUT = 1u << 4,   /* the size factors as params->layout (ac_mesh_layout) and
                                     * params->phase applies on every line of that mesh */
    AC_REQ_MESSAGE_FITS_INT = 1u << 5, /* the message travels packed: bytes <= INT_MAX */
    AC_REQ_BLOCKS_FIT_INT = 1u << 6,   /* all ranks' blocks travel packed together:
                                        * size * bytes <= INT_MAX */
    AC_REQ_GATHERED_FITS_INT = 1u << 7, /* every rank's whole vector is gathered: size * count
                                         * and size * bytes <= INT_MAX */
    AC_REQ_CARTESIAN = 1u << 8, /* a neighbourhood collective on a Cartesian communicator */
    AC_REQ_WINDOW = 1u << 9,    /* a one-sided window over the communicator could be made on
                                 * every rank (agreed once per communicator) */
    AC_REQ_LIBRARY_NEIGHBOR = 1u << 10, /* the MPI library has its own neighbourhood
                                         * collectives (SimGrid 3.32's SMPI has none) */
    AC_REQ_NODES = 1u << 11, /* hierarchical instances (hierarchical.c): ranks on at least two
                              * nodes, some node with several, and every phase applicable on the
                              * nodes' and the leaders' communicators (ac_call.nodes, known) */
    AC_REQ_NODE_LAYOUT = 1u << 12, /* reads the node layout, any layout (the node-ordered ring,
                                    * the node-aware all-to-all): learning it is collective, so a
                                    * nonblocking call runs it only where it is known
                                    * (select.c); a blocking call always */
    AC_REQ_SHARED_MEMORY = 1u << 13, /* every rank on one node (ac_call.nodes, known), and a
                                      * shared-memory window (common/shm.h: under SMPI, a
                                      * platform that prices a copy) */
    AC_REQ_TABLE_FITS = 1u << 14 /* the table of every rank's blocks for every rank that each
                                  * rank keeps (size^2 x bytes) within the scratch bound
                                  * (ac_coll_set_max_scratch: AUTOCOLL_MAX_SCRATCH_MIB) */
};

/* The node layout of a call's communicator, equal on every rank (made collectively once per
 * communicator: ac_call_nodes). nodes 0: not known, and then no hierarchical instance applies. */
typedef struct ac_node_shape {
    int nodes;   /* nodes the ranks are on */
    int ppn_min; /* ranks on the smallest node */
    int ppn_max; /* ranks on the largest node */
    int blocks;  /* 1 when every node's ranks are consecutive in the communicator's order (nodes
                  * then come in rank order): a reduction by nodes keeps the ranks' order */
} ac_node_shape;

/* The virtual topology of a neighbourhood collective's communicator (equal on every rank). */
typedef enum ac_topology {
    AC_TOPOLOGY_NONE,      /* not a neighbourhood collective */
    AC_TOPOLOGY_CARTESIAN, /* MPI_Cart_create */
    AC_TOPOLOGY_DIST_GRAPH /* MPI_Dist_graph_create(_adjacent) */
} ac_topology;

/* Synchronisation between the phases of ring and pair algorithms (STAR-MPI section 3.1). */
typedef enum ac_sync {
    AC_SYNC_NONE,    /* phases run asynchronously */
    AC_SYNC_LIGHT,   /* a zero-byte token exchange with the phase's partners */
    AC_SYNC_BARRIER  /* MPI_Barrier between phases */
} ac_sync;

/* Tree shapes of the rooted collectives (src/coll/common/tree.h). Every shape numbers the ranks
 * relative to the root and gives each rank a subtree of consecutive relative ranks. */
typedef enum ac_tree_kind {
    AC_TREE_BINOMIAL, /* k-nomial with k = 2 (the default) */
    AC_TREE_BINARY,   /* balanced binary tree in pre-order */
    AC_TREE_CHAIN,    /* each rank forwards to the next */
    AC_TREE_FLAT,     /* the root talks to every rank (the "sequential" tree) */
    AC_TREE_KNOMIAL   /* k-nomial, k = ac_params.k >= 2 */
} ac_tree_kind;

struct ac_params;
struct ac_neighbors;
struct ac_cost_model;
struct ac_sched;

typedef int ac_allgather_fn(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                            int rcount, MPI_Datatype rtype, MPI_Comm comm,
                            const struct ac_params *p);
typedef int ac_allgatherv_fn(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                             const int *rcounts, const int *displs, MPI_Datatype rtype,
                             MPI_Comm comm, const struct ac_params *p);
typedef int ac_allreduce_fn(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype,
                            MPI_Op op, MPI_Comm comm, const struct ac_params *p);
/* An algorithm written as a schedule (common/sched.h): it appends its rounds to `s`, made on
 * the private communicator; the blocking call runs them, nonblocking and persistent calls
 * progress them. Its error while building (MPI_ERR_NO_MEM). */
typedef int ac_allreduce_sched_fn(struct ac_sched *s, const void *sbuf, void *rbuf, int count,
                                  MPI_Datatype dtype, MPI_Op op, const struct ac_params *p);
typedef int ac_barrier_sched_fn(struct ac_sched *s, const struct ac_params *p);
typedef int ac_bcast_sched_fn(struct ac_sched *s, void *buf, int count, MPI_Datatype dtype,
                              int root, const struct ac_params *p);
typedef int ac_reduce_sched_fn(struct ac_sched *s, const void *sbuf, void *rbuf, int count,
                               MPI_Datatype dtype, MPI_Op op, int root,
                               const struct ac_params *p);
typedef int ac_gather_sched_fn(struct ac_sched *s, const void *sbuf, int scount,
                               MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                               int root, const struct ac_params *p);
typedef ac_gather_sched_fn ac_scatter_sched_fn; /* the same arguments */
typedef int ac_reduce_scatter_sched_fn(struct ac_sched *s, const void *sbuf, void *rbuf,
                                       const int *rcounts, MPI_Datatype dtype, MPI_Op op,
                                       const struct ac_params *p);
typedef int ac_reduce_scatter_block_sched_fn(struct ac_sched *s, const void *sbuf, void *rbuf,
                                             int rcount, MPI_Datatype dtype, MPI_Op op,
                                             const struct ac_params *p);
typedef int ac_allgather_sched_fn(struct ac_sched *s, const void *sbuf, int scount,
                                  MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                                  const struct ac_params *p);
typedef int ac_allgatherv_sched_fn(struct ac_sched *s, const void *sbuf, int scount,
                                   MPI_Datatype stype, void *rbuf, const int *rcounts,
                                   const int *displs, MPI_Datatype rtype,
                                   const struct ac_params *p);
typedef int ac_alltoall_sched_fn(struct ac_sched *s, const void *sbuf, int scount,
                                 MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                                 const struct ac_params *p);
typedef int ac_alltoallv_sched_fn(struct ac_sched *s, const void *sbuf, const int *scounts,
                                  const int *sdispls, MPI_Datatype stype, void *rbuf,
                                  const int *rcounts, const int *rdispls, MPI_Datatype rtype,
                                  const struct ac_params *p);

/* The declarations of algorithm `name` of collective `coll` run by blocking calls only,
 * ac_<coll>_<name>, and of one written as a schedule (common/sched.h): its blocking run and its
 * schedule, ac_<coll>_<name>_schedule. For the lists of engines two collectives share. */
#define AC_DECLARE_BLOCKING(coll, name) ac_##coll##_fn ac_##coll##_##name;
#define AC_DECLARE_SCHEDULED(coll, name)                                                       \
    ac_##coll##_fn ac_##coll##_##name;                                                         \
    ac_##coll##_sched_fn ac_##coll##_##name##_schedule;

/* The blocking run of a bcast, of a gather or scatter, of an allgather or alltoall written as a
 * schedule (common/by_schedule.c): built on comm with the blocking algorithms' tag for the
 * blocking run (a phase of the library's own: one step, common/phase.h), run to completion,
 * freed. AC_BCAST_BY_SCHEDULE(name), AC_ROOTED_BY_SCHEDULE(coll, name) and
 * AC_BLOCKS_BY_SCHEDULE(coll, name) define ac_<coll>_<name> so, from ac_<coll>_<name>_schedule. */
int ac_bcast_by_schedule(ac_bcast_sched_fn *build, void *buf, int count, MPI_Datatype dtype,
                         int root, MPI_Comm comm, const struct ac_params *p);
int ac_rooted_by_schedule(ac_gather_sched_fn *build, const void *sbuf, int scount,
                          MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                          int root, MPI_Comm comm, const struct ac_params *p);
int ac_blocks_by_schedule(ac_allgather_sched_fn *build, const void *sbuf, int scount,
                          MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                          MPI_Comm comm, const struct ac_params *p);
#define AC_BCAST_BY_SCHEDULE(name)                                                             \
    int ac_bcast_##name(void *buf, int count, MPI_Datatype dtype, int root, MPI_Comm comm,      \
                        const struct ac_params *p)                                             \
    {                                                                                          \
        return ac_bcast_by_schedule(ac_bcast_##name##_schedule, buf, count, dtype, root, comm, \
                                    p);                                                        \
    }
#define AC_ROOTED_BY_SCHEDULE(coll, name)                                                      \
    int ac_##coll##_##name(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,       \
                           int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,            \
                           const struct ac_params *p)                                          \
    {                                                                                          \
        return ac_rooted_by_schedule(ac_##coll##_##name##_schedule, sbuf, scount, stype, rbuf, \
                                     rcount, rtype, root, comm, p);                            \
    }
#define AC_BLOCKS_BY_SCHEDULE(coll, name)                                                      \
    int ac_##coll##_##name(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,       \
                           int rcount, MPI_Datatype rtype, MPI_Comm comm,                      \
                           const struct ac_params *p)                                          \
    {                                                                                          \
        return ac_blocks_by_schedule(ac_##coll##_##name##_schedule, sbuf, scount, stype, rbuf, \
                                     rcount, rtype, comm, p);                                  \
    }
/* The arguments of a collective of one block a rank (allgather, alltoall), kept where a schedule
 * is built or started later: a native schedule's library call, a racing request's builds
 * (intercept/blocks_request.c). */
typedef struct ac_blocks_args {
    const void *sbuf;
    int scount;
    MPI_Datatype stype;
    void *rbuf;
    int rcount;
    MPI_Datatype rtype;
} ac_blocks_args;
/* ... and of a rooted one (gather, scatter: intercept/rooted_request.c) */
typedef struct ac_rooted_args {
    const void *sbuf;
    int scount;
    MPI_Datatype stype;
    void *rbuf;
    int rcount;
    MPI_Datatype rtype;
    int root;
} ac_rooted_args;
typedef int ac_alltoall_fn(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                           int rcount, MPI_Datatype rtype, MPI_Comm comm,
                           const struct ac_params *p);
typedef int ac_alltoallv_fn(const void *sbuf, const int *scounts, const int *sdispls,
                            MPI_Datatype stype, void *rbuf, const int *rcounts,
                            const int *rdispls, MPI_Datatype rtype, MPI_Comm comm,
                            const struct ac_params *p);
typedef int ac_barrier_fn(MPI_Comm comm, const struct ac_params *p);
typedef int ac_bcast_fn(void *buf, int count, MPI_Datatype dtype, int root, MPI_Comm comm,
                        const struct ac_params *p);
typedef int ac_gather_fn(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                         int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                         const struct ac_params *p);
typedef int ac_reduce_fn(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype, MPI_Op op,
                         int root, MPI_Comm comm, const struct ac_params *p);
typedef int ac_reduce_scatter_fn(const void *sbuf, void *rbuf, const int *rcounts,
                                 MPI_Datatype dtype, MPI_Op op, MPI_Comm comm,
                                 const struct ac_params *p);
typedef int ac_reduce_scatter_block_fn(const void *sbuf, void *rbuf, int rcount,
                                       MPI_Datatype dtype, MPI_Op op, MPI_Comm comm,
                                       const struct ac_params *p);
typedef int ac_scatter_fn(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                          int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                          const struct ac_params *p);
typedef int ac_neighbor_allgather_fn(const void *sbuf, int scount, MPI_Datatype stype,
                                     void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm,
                                     const struct ac_params *p);
typedef int ac_neighbor_allgatherv_fn(const void *sbuf, int scount, MPI_Datatype stype,
                                      void *rbuf, const int *rcounts, const int *displs,
                                      MPI_Datatype rtype, MPI_Comm comm,
                                      const struct ac_params *p);
typedef int ac_neighbor_alltoall_fn(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                    int rcount, MPI_Datatype rtype, MPI_Comm comm,
                                    const struct ac_params *p);
typedef int ac_neighbor_alltoallv_fn(const void *sbuf, const int *scounts, const int *sdispls,
                                     MPI_Datatype stype, void *rbuf, const int *rcounts,
                                     const int *rdispls, MPI_Datatype rtype, MPI_Comm comm,
                                     const struct ac_params *p);
typedef int ac_neighbor_alltoallw_fn(const void *sbuf, const int *scounts,
                                     const MPI_Aint *sdispls, const MPI_Datatype *stypes,
                                     void *rbuf, const int *rcounts, const MPI_Aint *rdispls,
                                     const MPI_Datatype *rtypes, MPI_Comm comm,
                                     const struct ac_params *p);
/* A neighbourhood exchange engine (src/coll/common/neighbor.h): moves the blocks that a
 * neighbourhood collective's algorithm described in nb (one per edge). */
typedef int ac_neighbor_exchange_fn(struct ac_neighbors *nb, MPI_Comm comm);
/* ... written as a schedule (common/sched.h): appends the rounds that move the blocks nb
 * describes (each step keeps its block's buffer, count and datatype: nb's blocks may be described
 * anew once it has been built). */
typedef int ac_neighbor_exchange_sched_fn(struct ac_sched *s, const struct ac_neighbors *nb);
/* The neighbourhood collectives written as schedules (the allgather's, alltoall's, allgatherv's
 * and alltoallv's arguments are those of the collectives of the same name). */
typedef ac_allgather_sched_fn ac_neighbor_allgather_sched_fn;
typedef ac_alltoall_sched_fn ac_neighbor_alltoall_sched_fn;
typedef ac_allgatherv_sched_fn ac_neighbor_allgatherv_sched_fn;
typedef ac_alltoallv_sched_fn ac_neighbor_alltoallv_sched_fn;
typedef int ac_neighbor_alltoallw_sched_fn(struct ac_sched *s, const void *sbuf,
                                           const int *scounts, const MPI_Aint *sdispls,
                                           const MPI_Datatype *stypes, void *rbuf,
                                           const int *rcounts, const MPI_Aint *rdispls,
                                           const MPI_Datatype *rtypes, const struct ac_params *p);

/* Parameters of a registered instance. Variants differ by parameters, not by copies:
 * `allreduce rabenseifner_ring_light_barrier` is the Rabenseifner engine with
 * .allgatherv = ac_allgatherv_ring and .inner = {.sync = AC_SYNC_LIGHT}; `bcast
 * chain_tree_segment_8k` is the tree engine with .tree = AC_TREE_CHAIN and .segment = 8192.
 * Zero fields are the defaults (NULL params: all defaults). */
typedef struct ac_params {
    ac_sync sync;                    /* ring / pair phase synchronisation */
    int dims;                        /* mesh dimensions (2 or 3) */
    ac_tree_kind tree;               /* tree shape of a rooted collective (default binomial) */
    int k;                           /* radix of AC_TREE_KNOMIAL (>= 2) */
    int segment;                     /* pipeline segment in bytes; 0: unsegmented */
    ac_allgatherv_fn *allgatherv;    /* inner all-gather of a composed algorithm */
    ac_allgatherv_sched_fn *allgatherv_schedule; /* ... its schedule, for a composed algorithm
                                                  * written as one (NULL: none) */
    ac_alltoallv_fn *alltoallv;      /* inner all-to-all of a composed algorithm */
    ac_alltoallv_sched_fn *alltoallv_schedule;   /* ... its schedule (NULL: none) */
    const struct ac_params *inner;   /* parameters of the inner all-gather */
    const struct ac_params *inner2;  /* parameters of the inner all-to-all */
    int layout[2];                   /* orthogonal mesh: the leading dims-1 sizes (the last is
                                      * the communicator size over their product) */
    const struct ac_algorithm *phase; /* orthogonal mesh: the registry entry each phase runs on
                                       * the mesh's line communicators */
    ac_neighbor_exchange_fn *exchange; /* neighbourhood collectives: the engine that moves the
                                        * blocks */
    ac_neighbor_exchange_sched_fn *exchange_schedule; /* ... the engine written as a schedule
                                                       * (NULL: blocking only, `exchange`) */
    const struct ac_algorithm *intra[2]; /* hierarchical: the registry entries of the intra-node
                                          * phases before and after the inter-node one (the
                                          * inter-node phase is .phase); NULL: none */
    int leaders;                 /* hierarchical: leaders per node, each with a share of the
                                  * data (0 or 1: one leader, the node's lowest rank) */
} ac_params;

/* Facts about one call that decide applicability; all of them equal on every rank. */
typedef struct ac_call {
    ac_collective collective;
    int size;           /* communicator size */
    int count;          /* reduction / broadcast element count (0 where it has no meaning) */
    MPI_Op op;          /* MPI_OP_NULL when the collective has no op */
    int op_builtin;     /* 1 when op is predefined */
    int op_commutative; /* 1 when op is commutative */
    size_t bytes;       /* message size in bytes, from the type signature (docs/guide.md) */
    ac_topology topology; /* neighbourhood collectives: the communicator's topology */
    int window;           /* neighbourhood collectives: a window could be made (AC_REQ_WINDOW) */
    ac_node_shape nodes;  /* the communicator's nodes, where a candidate needs them
                           * (AC_REQ_NODES: selection fills them with ac_call_nodes) */
} ac_call;

typedef struct ac_algorithm {
    const char *name;       /* registry name: the AUTOCOLL_<COLL> value, in reports and tables */
    ac_collective collective;
    const char *group;      /* group for two-level search (STAR-MPI enhanced AEOS) */
    const char *attributes; /* "key=value ..." for attribute-based search */
    unsigned requires;      /* AC_REQ_* */
    size_t min_bytes, max_bytes; /* advisory message-size range; max 0 = none */
    union {
        ac_allgather_fn *allgather;
        ac_allgatherv_fn *allgatherv;
        ac_allreduce_fn *allreduce;
        ac_alltoall_fn *alltoall;
        ac_alltoallv_fn *alltoallv;
        ac_barrier_fn *barrier;
        ac_bcast_fn *bcast;
        ac_gather_fn *gather;
        ac_reduce_fn *reduce;
        ac_reduce_scatter_fn *reduce_scatter;
        ac_reduce_scatter_block_fn *reduce_scatter_block;
        ac_scatter_fn *scatter;
        ac_neighbor_allgather_fn *neighbor_allgather;
        ac_neighbor_allgatherv_fn *neighbor_allgatherv;
        ac_neighbor_alltoall_fn *neighbor_alltoall;
        ac_neighbor_alltoallv_fn *neighbor_alltoallv;
        ac_neighbor_alltoallw_fn *neighbor_alltoallw;
    } fn;
    union { /* the algorithm as a schedule, where it is written as one (NULL: blocking only) */
        ac_allreduce_sched_fn *allreduce;
        ac_barrier_sched_fn *barrier;
        ac_bcast_sched_fn *bcast;
        ac_reduce_sched_fn *reduce;
        ac_gather_sched_fn *gather;
        ac_scatter_sched_fn *scatter;
        ac_reduce_scatter_sched_fn *reduce_scatter;
        ac_reduce_scatter_block_sched_fn *reduce_scatter_block;
        ac_allgather_sched_fn *allgather;
        ac_allgatherv_sched_fn *allgatherv;
        ac_alltoall_sched_fn *alltoall;
        ac_alltoallv_sched_fn *alltoallv;
        ac_neighbor_allgather_sched_fn *neighbor_allgather;
        ac_neighbor_allgatherv_sched_fn *neighbor_allgatherv;
        ac_neighbor_alltoall_sched_fn *neighbor_alltoall;
        ac_neighbor_alltoallv_sched_fn *neighbor_alltoallv;
        ac_neighbor_alltoallw_sched_fn *neighbor_alltoallw;
    } sched;
    const ac_params *params;
    const struct ac_cost_model *cost; /* its cost model (cost_terms.h, beside the entry); NULL:
                                       * none, it is measured (native, the library's phases) */
    const char *summary;
} ac_algorithm;

/* A collective's static table: the algorithms declared in src/coll/<coll>/registry.c. */
typedef struct ac_registry {
    const ac_algorithm *algorithms;
    int count;
} ac_registry;

/* The algorithms for one communicator size: the static table's entries in its order, then the
 * family instances (orthogonal.c) whose layout factors the size. Each algorithm is at its one
 * address: the entry in its static table, or the family instance that ac_registry_find gives
 * for its name. */
typedef struct ac_algorithm_list {
    const ac_algorithm *const *algorithms;
    int count;
} ac_algorithm_list;

/* A parameterised family of instances (orthogonal.c): made per layout and phase algorithm for
 * the communicator at hand, described once. */
enum { AC_FAMILY_PHASES = 4 };
typedef struct ac_family {
    const char *name;       /* "orthogonal" */
    const char *names;      /* the instances' name patterns */
    const char *layouts;    /* which layouts a communicator size has, for humans */
    const char *groups;     /* the instances' groups */
    const char *attributes; /* the instances' attribute pattern */
    ac_algorithm base;      /* what every instance shares: collective, function, requirements,
                             * summary */
    const char *phases[AC_FAMILY_PHASES]; /* registry names of the phase algorithms */
} ac_family;

/* Registry access (src/coll/registry.c). */
const char *ac_collective_name(ac_collective c);       /* "allreduce" */
const char *ac_collective_env(ac_collective c);        /* "AUTOCOLL_ALLREDUCE" */
int ac_collective_from_name(const char *name);         /* -1 if unknown */
/* 1 for the MPI-3 neighbourhood collectives: they need a Cartesian or distributed-graph
 * communicator (tests/mpi/neighbor.c tests them; the harness and the benchmark driver, which
 * run on plain communicators, leave them out). */
int ac_collective_neighborhood(ac_collective c);
ac_registry ac_registry_of(ac_collective c);           /* the static table only */
/* The list for a communicator of `size` ranks, made once per (collective, size) and kept for
 * the life of the process; thread-safe. Empty when memory runs out (then for good). */
ac_algorithm_list ac_registry_for_size(ac_collective c, int size);
/* 1 when some candidate of collective c at `size` ranks needs the communicator's node layout
 * to be known to apply (AC_REQ_NODES, AC_REQ_SHARED_MEMORY): selection learns it then. */
int ac_registry_reads_nodes(ac_collective c, int size);
/* The position of `alg` in `list` (a list of its collective), -1 when it is not in it. */
int ac_algorithm_list_index(ac_algorithm_list list, const ac_algorithm *alg);
/* The value of `key` in an algorithm's "key=value ..." attributes (may be NULL), as a pointer
 * into them and its length in *len; NULL (and *len 0) when the key is absent. */
const char *ac_attribute_value(const char *attributes, const char *key, size_t *len);
/* A static entry, or the family instance of a well-formed family name (for any size). */
const ac_algorithm *ac_registry_find(ac_collective c, const char *name);
const ac_algorithm *ac_registry_native(ac_collective c);
/* What runs where nothing else is chosen: native, or where native cannot run (a library without
 * the collective: SMPI's neighbourhood collectives) the first entry of the static table that
 * applies to the call. */
const ac_algorithm *ac_registry_fallback(const ac_call *call);

/* A hash of every static entry's (collective, name) and every family's description (name
 * patterns, phase algorithms): tables and history record it. */
unsigned long ac_registry_fingerprint(void);

/* Testing only (AUTOCOLL_TEST_RANKS_PER_NODE, AUTOCOLL_TEST_PLACEMENT): node-aware algorithms
 * take the processes for nodes of k ranks of MPI_COMM_WORLD, in blocks of consecutive world
 * ranks (cyclic 0: world rank w on node w / k) or dealt round-robin over the ceil(p / k) nodes
 * (cyclic 1: node w % ceil(p / k)), so a communicator sees its ranks' nodes as the processes'
 * are, in whatever order; k = 0 (the default): the real shared-memory nodes. Set at
 * initialisation. */
void ac_coll_set_test_nodes(int k, int cyclic);
/* Testing only (AUTOCOLL_TEST_SHM_REFUSE): on world rank `rank` the shared-memory window of the
 * shm algorithms counts as refused by the library (common/shm.c), so that every rank learns it
 * and runs the library's collective; -1 (the default): off. Set at initialisation. */
void ac_coll_set_test_shm_refuse(int rank);
/* The most scratch memory, in bytes, that an algorithm whose scratch grows faster than the
 * call's own buffers may take on one rank (AUTOCOLL_MAX_SCRATCH_MIB, AC_REQ_TABLE_FITS); an
 * instance that would need more is not applicable. Set at initialisation, equal on every rank
 * as every setting. */
void ac_coll_set_max_scratch(size_t bytes);

/* 1 when `alg` is written as a schedule (its `sched` member): nonblocking and persistent calls
 * can run it too. */
static inline int ac_has_schedule(const ac_algorithm *alg)
{
    return alg->sched.allreduce != NULL; /* the union's one pointer, whatever the collective */
}

/* 1 when `alg` is composed of inner collectives (params->allgatherv, params->alltoallv: the
 * allreduce families, bcast's scatter-allgathers; params->phase: the hierarchical and the
 * orthogonal instances, hierarchical.c, orthogonal.c). */
static inline int ac_is_composed(const ac_algorithm *alg)
{
    return alg->params && (alg->params->allgatherv || alg->params->alltoallv ||
                           alg->params->phase);
}

/* Applicability: 1 if `alg` may run for `call`; otherwise 0 and, if why != NULL, a reason. */
int ac_applicable(const ac_algorithm *alg, const ac_call *call, const char **why);

/* 1 when `a` and `b` send the same messages for `call`: the same function with the same
 * parameters, except a pipeline segment that holds every byte stream of the call whole (then the
 * segmented instance sends one message per tree edge, as the unsegmented one does). Selection
 * keeps the first of such twins only (select.c): racing identical schedules measures nothing
 * but noise, and more candidates give a lucky one more chances to win. */
int ac_same_messages(const ac_algorithm *a, const ac_algorithm *b, const ac_call *call);

/* Human-readable requirement list, e.g. "power-of-two size, commutative op". */
void ac_requirements_text(const ac_algorithm *alg, char *buf, size_t len);

/* The orthogonal-decomposition family (orthogonal.c). */
const ac_family *ac_orthogonal_family(ac_collective c); /* NULL: c has none */
/* The instances of c for `size` ranks in registry order (phase-major, then layout) into out;
 * their number (out NULL: count only), -1 when memory runs out. */
int ac_orthogonal_instances(ac_collective c, int size, const ac_algorithm **out);
/* The instance named `name` (orthogonal_<p1>xn_<phase>, orthogonal_<p1>x<p2>xn_<phase>), made
 * on first use; NULL when the name is none of c's family. */
const ac_algorithm *ac_orthogonal_find(ac_collective c, const char *name);

/* The hierarchical family (hierarchical.c): per collective, an intra-node phase on every node,
 * an inter-node phase among the node leaders, and the way back; each phase a registry entry of
 * its sub-collective (native: the library's own). Instances for every combination of the
 * family's phases and leader counts, the same for every communicator size of at least 3. */
enum { AC_HIER_PHASES = 6, AC_HIER_LEADERS = 3, AC_HIER_SHARES = 8 /* most leaders a node */ };
/* What a phase moves, as a factor of the call's bytes and count (ac_hier_scale): the whole, a
 * leader's share (1 / k), a node's blocks (ppn: the leaders' blocks of a gather), a leader's
 * share of them (ppn / k: a multi-leader gather's), every rank's (p: the gathered vector), a
 * leader's share of every rank's (p / k: a multi-leader all-gather's), a node's ranks' vectors
 * of p blocks (ppn p: what a leader of an all-to-all receives), a leader's share of them
 * (ppn p / k: a multi-leader all-to-all's), one rank's block of the vector (1 / p: a
 * reduce-scatter's), a leader's share of it (1 / (p k): a multi-leader reduce-scatter's). */
typedef enum ac_hier_bytes {
    AC_HIER_WHOLE,
    AC_HIER_SHARE,
    AC_HIER_NODE,
    AC_HIER_NODE_SHARE,
    AC_HIER_ALL,
    AC_HIER_ALL_SHARE,
    AC_HIER_NODE_ALL,
    AC_HIER_NODE_ALL_SHARE,
    AC_HIER_RANK,
    AC_HIER_RANK_SHARE
} ac_hier_bytes;
typedef struct ac_hier_family {
    ac_algorithm base; /* collective, function, requirements (AC_REQ_NODES and more), summary */
    ac_collective intra[2]; /* sub-collectives of the intra-node phases before and after the
                             * inter-node one; AC_NUM_COLLECTIVES: none */
    ac_collective inter;    /* sub-collective among the leaders */
    const char *intra_phases[AC_HIER_PHASES]; /* registry names present in every intra[]
                                               * sub-collective; NULL ends */
    const char *inter_phases[AC_HIER_PHASES]; /* registry names of inter's; NULL ends */
    int leaders[AC_HIER_LEADERS];             /* 1, then multi-leader counts; 0 ends */
    ac_hier_bytes bytes[3]; /* what the phases move: intra[0], inter, intra[1] */
    int ordered;  /* 1 when a non-commutative op needs the nodes in rank blocks */
    int equal_nodes; /* 1 when the inter-node phase moves whole nodes' runs of blocks: on nodes
                      * of different sizes only native applies there (the instance calls the
                      * library's v-collective among the leaders instead) */
    ac_algorithm pipelined; /* Open MPI HAN's pipeline, where the family has one (fn NULL: none):
                             * its function, summary and cost; one leader a node, the message
                             * in segments of `segment` bytes, the leaders' phase the library's
                             * own (its nonblocking calls overlapping the nodes' phases of other
                             * segments), each intra_phases entry inside the nodes */
    int segment;            /* the pipelined instances' segment, bytes */
} ac_hier_family;
/* The factor of `rule` on p ranks, ppn on the largest node, k leaders a node. */
double ac_hier_scale(ac_hier_bytes rule, int p, int ppn, int k);
const ac_hier_family *ac_hier_family_of(ac_collective c); /* NULL: c has none */
/* The instances of c in registry order (leaders, then intra phase, then inter phase) into out;
 * their number (out NULL: count only), -1 when memory runs out. None below 3 ranks. */
int ac_hier_instances(ac_collective c, int size, const ac_algorithm **out);
/* The instance named `name` (hier_<intra>_<inter>, hier_k<k>_<intra>_<inter>,
 * hier_segment_<S>k_<intra>_native), NULL when the name is none of c's family. */
const ac_algorithm *ac_hier_find(ac_collective c, const char *name);

/* Fills call->nodes from comm's node layout (ac_nodes_get: collective over comm on the first
 * use, cached after it; call it where every rank of comm makes the same call). An error leaves
 * call->nodes unknown (nodes 0) and returns the MPI error. */
int ac_call_nodes(ac_call *call, MPI_Comm comm);

/* Per-collective tables (src/coll/<coll>/registry.c). */
extern const ac_registry ac_registry_allgather;
extern const ac_registry ac_registry_allgatherv;
extern const ac_registry ac_registry_allreduce;
extern const ac_registry ac_registry_alltoall;
extern const ac_registry ac_registry_alltoallv;
extern const ac_registry ac_registry_barrier;
extern const ac_registry ac_registry_bcast;
extern const ac_registry ac_registry_gather;
extern const ac_registry ac_registry_reduce;
extern const ac_registry ac_registry_reduce_scatter;
extern const ac_registry ac_registry_reduce_scatter_block;
extern const ac_registry ac_registry_scatter;
extern const ac_registry ac_registry_neighbor_allgather;
extern const ac_registry ac_registry_neighbor_allgatherv;
extern const ac_registry ac_registry_neighbor_alltoall;
extern const ac_registry ac_registry_neighbor_alltoallv;
extern const ac_registry ac_registry_neighbor_alltoallw;

#define AC_REGISTRY(coll, table)                                                               \
    const ac_registry ac_registry_##coll = {table, (int)(sizeof(table) / sizeof(table[0]))}

/* The fields of a registry's entry for the MPI library's own collective, `native` (every
 * registry's first), from the collective's name in lower and upper case and the MPI routine's
 * name after MPI_: {AC_NATIVE(allgather, ALLGATHER, Allgather)}; a registry adds what else its
 * native has (the neighbourhood collectives' requirement). */
#define AC_NATIVE(coll, COLL, Routine)                                                         \
    .name = "native", .collective = AC_##COLL, .group = "native",                              \
    .attributes = "library=native", .fn.coll = ac_##coll##_native,                             \
    .summary = "the MPI library's own MPI_" #Routine

#endif
