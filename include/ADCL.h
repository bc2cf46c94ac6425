/*
 * ADCL.h - the API of ADCL, the Abstract Data and Communication Library (Gabriel et al.), as
 * autocoll implements it: programs written for ADCL build against this header and libautocoll
 * unchanged.
 *
 * A request combines a vector (the data, with its halo), a topology (who the neighbours are) and
 * a function set (the implementations of the exchange). Starting a request runs one function of
 * the set; during the first calls the request measures the functions in turn and then keeps the
 * fastest (brute force, or the attribute-based search: AUTOCOLL_ADCL_SEARCH). Every rank of the
 * request's communicator runs the same function at each call: requests are collective.
 *
 * All functions return ADCL_SUCCESS (0) or one of the (negative) error codes below; an invalid
 * argument also prints one line on stderr. Handles are pointers; the ADCL_*_NULL handles are NULL.
 */
#ifndef ADCL_H
#define ADCL_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ADCL_API __attribute__((visibility("default")))

/* Return codes. */
#define ADCL_SUCCESS 0
#define ADCL_NO_MEMORY (-1)
#define ADCL_ERROR_INTERNAL (-2)
#define ADCL_USER_ERROR (-3)
#define ADCL_UNDEFINED (-4)
#define ADCL_NOT_FOUND (-5)
#define ADCL_NOT_SUPPORTED (-6)
#define ADCL_INVALID_ARG (-10)
#define ADCL_INVALID_NDIMS (-11)
#define ADCL_INVALID_DIMS (-12)
#define ADCL_INVALID_HWIDTH (-13)
#define ADCL_INVALID_DAT (-14)
#define ADCL_INVALID_DATA (-15)
#define ADCL_INVALID_COMTYPE (-16)
#define ADCL_INVALID_COMM (-17)
#define ADCL_INVALID_REQUEST (-18)
#define ADCL_INVALID_NC (-19)
#define ADCL_INVALID_TYPE (-20)
#define ADCL_INVALID_VECTOR (-21)
#define ADCL_INVALID_TOPOLOGY (-22)
#define ADCL_INVALID_FNCTSET (-23)
#define ADCL_INVALID_FUNCTION (-24)
#define ADCL_INVALID_ATTRIBUTE (-25)
#define ADCL_INVALID_ATTRSET (-26)
#define ADCL_INVALID_TIMER (-27)
#define ADCL_INVALID_VMAP (-28)
#define ADCL_INVALID_DIRECTION (-29)
#define ADCL_INVALID_VALUE (-30)
#define ADCL_NOT_INITIALIZED (-31)

/* Topology directions (ADCL_Topology_create_generic). */
#define ADCL_DIRECTION_BOTH 1

/* Vector maps (ADCL_Vmap_*): what part of a vector a request communicates. */
#define ADCL_VECTOR_HALO 1
#define ADCL_VECTOR_ALL 2
#define ADCL_VECTOR_LIST 3
#define ADCL_VECTOR_ALLREDUCE 4
#define ADCL_VECTOR_ALLTOALL 5

typedef struct ADCL_vmap_s *ADCL_Vmap;
typedef struct ADCL_vector_s *ADCL_Vector;
typedef struct ADCL_topology_s *ADCL_Topology;
typedef struct ADCL_attribute_s *ADCL_Attribute;
typedef struct ADCL_attrset_s *ADCL_Attrset;
typedef struct ADCL_function_s *ADCL_Function;
typedef struct ADCL_fnctset_s *ADCL_Fnctset;
typedef struct ADCL_request_s *ADCL_Request;
typedef struct ADCL_timer_s *ADCL_Timer;

#define ADCL_VMAP_NULL ((ADCL_Vmap)0)
#define ADCL_VECTOR_NULL ((ADCL_Vector)0)
#define ADCL_TOPOLOGY_NULL ((ADCL_Topology)0)
#define ADCL_ATTRIBUTE_NULL ((ADCL_Attribute)0)
#define ADCL_ATTRSET_NULL ((ADCL_Attrset)0)
#define ADCL_FUNCTION_NULL ((ADCL_Function)0)
#define ADCL_FNCTSET_NULL ((ADCL_Fnctset)0)
#define ADCL_REQUEST_NULL ((ADCL_Request)0)
#define ADCL_TIMER_NULL ((ADCL_Timer)0)

/* A user function of a function set: it runs the request's operation (collectively). */
typedef void ADCL_work_fnct_ptr(ADCL_Request);

/* The predefined function set of the n-dimensional neighbourhood (halo) exchange: ADCL's 20
 * implementations of its Table 1 and MPI_Neighbor_alltoallw. Valid between ADCL_Init and
 * ADCL_Finalize. */
extern ADCL_API struct ADCL_fnctset_s ADCL_fnctset_neighborhood;
#define ADCL_FNCTSET_NEIGHBORHOOD (&ADCL_fnctset_neighborhood)

/* Predefined collective sets: the vector reduced or exchanged in place by one of autocoll's
 * algorithms for the collective. ALLREDUCE: vmap ADCL_Vmap_allreduce_allocate(op), the whole
 * vector. ALLTOALL: vmap ADCL_Vmap_alltoall_allocate(n, n), the first size * n elements.
 * ALLGATHERV: vmap ADCL_Vmap_list_allocate(size, rcnts, displ), rank i's block at displ[i]. */
extern ADCL_API struct ADCL_fnctset_s ADCL_fnctset_allreduce;
extern ADCL_API struct ADCL_fnctset_s ADCL_fnctset_alltoall;
extern ADCL_API struct ADCL_fnctset_s ADCL_fnctset_allgatherv;
#define ADCL_FNCTSET_ALLREDUCE (&ADCL_fnctset_allreduce)
#define ADCL_FNCTSET_ALLTOALL (&ADCL_fnctset_alltoall)
#define ADCL_FNCTSET_ALLGATHERV (&ADCL_fnctset_allgatherv)

/* After MPI_Init, before MPI_Finalize; both collective over MPI_COMM_WORLD. */
ADCL_API int ADCL_Init(void);
ADCL_API int ADCL_Finalize(void);

ADCL_API int ADCL_Vmap_halo_allocate(int hwidth, ADCL_Vmap *vmap);
ADCL_API int ADCL_Vmap_all_allocate(ADCL_Vmap *vmap);
ADCL_API int ADCL_Vmap_list_allocate(int size, int *rcnts, int *displ, ADCL_Vmap *vmap);
ADCL_API int ADCL_Vmap_allreduce_allocate(MPI_Op op, ADCL_Vmap *vmap);
ADCL_API int ADCL_Vmap_alltoall_allocate(int scnt, int rcnt, ADCL_Vmap *vmap);
ADCL_API int ADCL_Vmap_free(ADCL_Vmap *vmap);

/* A vector of ndims dimensions of dims[i] elements each (halo cells included), with a trailing
 * dimension of nc components when nc > 0. `data` is the address of a pointer-of-pointers array
 * (a double ** for a 2-D vector of doubles, nc = 0; a double *** with nc > 0); the elements lie
 * contiguously underneath in C order. _allocate_ allocates it (freed by ADCL_Vector_free);
 * _register_ takes the user's (left alone by ADCL_Vector_deregister). */
ADCL_API int ADCL_Vector_allocate_generic(int ndims, int *dims, int nc, ADCL_Vmap vmap,
                                          MPI_Datatype dat, void *data, ADCL_Vector *vec);
ADCL_API int ADCL_Vector_register_generic(int ndims, int *dims, int nc, ADCL_Vmap vmap,
                                          MPI_Datatype dat, void *data, ADCL_Vector *vec);
ADCL_API int ADCL_Vector_free(ADCL_Vector *vec);
ADCL_API int ADCL_Vector_deregister(ADCL_Vector *vec);

/* A topology from a Cartesian communicator (neighbours by MPI_Cart_shift), or given explicitly:
 * lneighbors[i] and rneighbors[i] are the left and right neighbours in dimension i (nneigh ==
 * ndims; MPI_PROC_NULL on an open edge), flip[i] must be 0. */
ADCL_API int ADCL_Topology_create(MPI_Comm cart_comm, ADCL_Topology *topo);
ADCL_API int ADCL_Topology_create_generic(int ndims, int nneigh, int *lneighbors, int *flip,
                                          int *rneighbors, int *coords, int direction,
                                          MPI_Comm comm, ADCL_Topology *topo);
ADCL_API int ADCL_Topology_free(ADCL_Topology *topo);

ADCL_API int ADCL_Attribute_create(int maxnvalues, int *values, char **value_names,
                                   char *attr_name, ADCL_Attribute *attr);
ADCL_API int ADCL_Attribute_free(ADCL_Attribute *attr);
ADCL_API int ADCL_Attrset_create(int maxnum, ADCL_Attribute *attrs, ADCL_Attrset *attrset);
ADCL_API int ADCL_Attrset_free(ADCL_Attrset *attrset);
ADCL_API int ADCL_Function_create(ADCL_work_fnct_ptr *fnct, ADCL_Attrset attrset, int *attrvals,
                                  char *name, ADCL_Function *fnct_handle);
ADCL_API int ADCL_Function_free(ADCL_Function *fnct);
ADCL_API int ADCL_Fnctset_create(int maxnum, ADCL_Function *fncts, char *name,
                                 ADCL_Fnctset *fnctset);
ADCL_API int ADCL_Fnctset_free(ADCL_Fnctset *fnctset);

/* A request: collective over the topology's communicator. With ADCL_FNCTSET_NEIGHBORHOOD the
 * vector needs a halo map; a user function set may run without a vector (ADCL_VECTOR_NULL). */
ADCL_API int ADCL_Request_create(ADCL_Vector vec, ADCL_Topology topo, ADCL_Fnctset fnctset,
                                 ADCL_Request *req);
ADCL_API int ADCL_Request_start(ADCL_Request req);
ADCL_API int ADCL_Request_init(ADCL_Request req);
ADCL_API int ADCL_Request_wait(ADCL_Request req);
ADCL_API int ADCL_Request_free(ADCL_Request *req);
ADCL_API int ADCL_Request_get_comm(ADCL_Request req, MPI_Comm *comm, int *rank, int *size);
/* The function the request runs now (the winner once selection is over), its attributes' names,
 * their number, its values' names and the values. Each non-NULL output is one allocation the
 * caller releases with free(); any output may be NULL. */
ADCL_API int ADCL_Request_get_curr_function(ADCL_Request req, char **name, char ***attr_names,
                                            int *attr_num, char ***value_names, int **values);

/* A timer over one iteration of several requests: their selection judges the interval between
 * ADCL_Timer_start and ADCL_Timer_stop instead of their exchanges alone. */
ADCL_API int ADCL_Timer_create(int nreqs, ADCL_Request *reqs, ADCL_Timer *timer);
ADCL_API int ADCL_Timer_start(ADCL_Timer timer);
ADCL_API int ADCL_Timer_stop(ADCL_Timer timer);
ADCL_API int ADCL_Timer_free(ADCL_Timer *timer);

#ifdef __cplusplus
}
#endif

#endif
