/*
 * registry.c - the implementations of the neighbourhood exchange: ADCL's Table 1 (20
 * implementations, in its order) and MPI_Neighbor_alltoallw, each with its attributes as data
 * (partners, primitive, data, sync: what ADCL's attribute-based search prunes by) and its
 * requirements, checked by ac_halo_applicable only.
 *
 * A _pack instance runs the functions of its ddt sibling: its data attribute makes the steps of
 * engine.c pack the faces into contiguous buffers. Put and Get instances share the functions of
 * their synchronisation; the primitive attribute picks the access.
 */
#include "adcl/halo/halo.h"

#include <stddef.h>

#define P2P(n, part, prim, dat, req, i, w, help)                                                \
    {.name = n, .partners = part, .primitive = prim, .data = dat, .sync = AC_HALO_SYNC_NONE,    \
     .requires = req, .init = i, .wait = w, .summary = help}
#define RMA(n, part, prim, syn, i, w, help)                                                     \
    {.name = n, .partners = part, .primitive = prim, .data = AC_HALO_DDT, .sync = syn,          \
     .requires = AC_HALO_NEEDS_WINDOW, .init = i, .wait = w, .summary = help}

static const ac_halo_impl registry[] = {
    P2P("IsendIrecv_aao", AC_HALO_AAO, AC_HALO_ISEND_IRECV, AC_HALO_DDT, 0,
        ac_halo_isendirecv_aao_init, ac_halo_isendirecv_aao_wait,
        "all neighbours at once, MPI_Isend/Irecv/Waitall, derived datatypes"),
    P2P("IsendIrecv_pair", AC_HALO_PAIR, AC_HALO_ISEND_IRECV, AC_HALO_DDT, 0,
        ac_halo_isendirecv_pair_init, ac_halo_isendirecv_pair_wait,
        "one dimension at a time, MPI_Isend/Irecv/Waitall, derived datatypes"),
    P2P("SendIrecv_aao", AC_HALO_AAO, AC_HALO_SEND_IRECV, AC_HALO_DDT, 0,
        ac_halo_sendirecv_aao_init, ac_halo_sendirecv_aao_wait,
        "all neighbours at once, MPI_Send/Irecv/Waitall, derived datatypes"),
    P2P("SendIrecv_pair", AC_HALO_PAIR, AC_HALO_SEND_IRECV, AC_HALO_DDT, 0,
        ac_halo_sendirecv_pair_init, ac_halo_sendirecv_pair_wait,
        "one dimension at a time, MPI_Send/Irecv/Wait, derived datatypes"),
    P2P("IsendIrecv_aao_pack", AC_HALO_AAO, AC_HALO_ISEND_IRECV, AC_HALO_PACK, 0,
        ac_halo_isendirecv_aao_init, ac_halo_isendirecv_aao_wait,
        "all neighbours at once, MPI_Isend/Irecv/Waitall, MPI_Pack/Unpack"),
    P2P("IsendIrecv_pair_pack", AC_HALO_PAIR, AC_HALO_ISEND_IRECV, AC_HALO_PACK, 0,
        ac_halo_isendirecv_pair_init, ac_halo_isendirecv_pair_wait,
        "one dimension at a time, MPI_Isend/Irecv/Waitall, MPI_Pack/Unpack"),
    P2P("SendIrecv_aao_pack", AC_HALO_AAO, AC_HALO_SEND_IRECV, AC_HALO_PACK, 0,
        ac_halo_sendirecv_aao_init, ac_halo_sendirecv_aao_wait,
        "all neighbours at once, MPI_Send/Irecv/Waitall, MPI_Pack/Unpack"),
    P2P("SendIrecv_pair_pack", AC_HALO_PAIR, AC_HALO_SEND_IRECV, AC_HALO_PACK, 0,
        ac_halo_sendirecv_pair_init, ac_halo_sendirecv_pair_wait,
        "one dimension at a time, MPI_Send/Irecv/Wait, MPI_Pack/Unpack"),
    P2P("Send_Recv_pair", AC_HALO_PAIR, AC_HALO_SEND_RECV, AC_HALO_DDT,
        AC_HALO_NEEDS_CARTESIAN | AC_HALO_NEEDS_NO_SELF, ac_halo_send_recv_pair, NULL,
        "one dimension at a time, MPI_Send/Recv ordered by coordinate parity, derived datatypes"),
    P2P("Sendrecv_pair", AC_HALO_PAIR, AC_HALO_SENDRECV, AC_HALO_DDT, 0, ac_halo_sendrecv_pair,
        NULL, "one dimension at a time, MPI_Sendrecv, derived datatypes"),
    P2P("Send_Recv_pair_pack", AC_HALO_PAIR, AC_HALO_SEND_RECV, AC_HALO_PACK,
        AC_HALO_NEEDS_CARTESIAN | AC_HALO_NEEDS_NO_SELF, ac_halo_send_recv_pair, NULL,
        "one dimension at a time, MPI_Send/Recv ordered by coordinate parity, MPI_Pack/Unpack"),
    P2P("Sendrecv_pair_pack", AC_HALO_PAIR, AC_HALO_SENDRECV, AC_HALO_PACK, 0,
        ac_halo_sendrecv_pair, NULL, "one dimension at a time, MPI_Sendrecv, MPI_Pack/Unpack"),
    RMA("WinFencePut_aao", AC_HALO_AAO, AC_HALO_PUT, AC_HALO_SYNC_FENCE,
        ac_halo_winfence_aao_init, ac_halo_winfence_aao_wait,
        "all neighbours in one fence epoch, MPI_Put"),
    RMA("WinFenceGet_aao", AC_HALO_AAO, AC_HALO_GET, AC_HALO_SYNC_FENCE,
        ac_halo_winfence_aao_init, ac_halo_winfence_aao_wait,
        "all neighbours in one fence epoch, MPI_Get"),
    RMA("PostStartPut_aao", AC_HALO_AAO, AC_HALO_PUT, AC_HALO_SYNC_POST_START,
        ac_halo_poststart_aao_init, ac_halo_poststart_aao_wait,
        "all neighbours in one post/start epoch, MPI_Put"),
    RMA("PostStartGet_aao", AC_HALO_AAO, AC_HALO_GET, AC_HALO_SYNC_POST_START,
        ac_halo_poststart_aao_init, ac_halo_poststart_aao_wait,
        "all neighbours in one post/start epoch, MPI_Get"),
    RMA("WinFencePut_pair", AC_HALO_PAIR, AC_HALO_PUT, AC_HALO_SYNC_FENCE,
        ac_halo_winfence_pair_init, ac_halo_winfence_pair_wait,
        "one fence epoch per dimension, MPI_Put"),
    RMA("WinFenceGet_pair", AC_HALO_PAIR, AC_HALO_GET, AC_HALO_SYNC_FENCE,
        ac_halo_winfence_pair_init, ac_halo_winfence_pair_wait,
        "one fence epoch per dimension, MPI_Get"),
    RMA("PostStartPut_pair", AC_HALO_PAIR, AC_HALO_PUT, AC_HALO_SYNC_POST_START,
        ac_halo_poststart_pair_init, ac_halo_poststart_pair_wait,
        "one post/start epoch per dimension, MPI_Put"),
    RMA("PostStartGet_pair", AC_HALO_PAIR, AC_HALO_GET, AC_HALO_SYNC_POST_START,
        ac_halo_poststart_pair_init, ac_halo_poststart_pair_wait,
        "one post/start epoch per dimension, MPI_Get"),
    P2P("Neighbor_alltoallw", AC_HALO_AAO, AC_HALO_NEIGHBOR_COLLECTIVE, AC_HALO_DDT,
        AC_HALO_NEEDS_CARTESIAN | AC_HALO_NEEDS_STANDARD_NEIGHBORS, ac_halo_neighbor_alltoallw,
        NULL,
        "MPI_Neighbor_alltoallw on the Cartesian communicator, derived datatypes"),
};

static const char *const attribute_names[AC_HALO_ATTRIBUTES] = {"partners", "primitive", "data",
                                                                "sync"};
static const char *const partners_values[] = {"aao", "pair", NULL};
static const char *const primitive_values[] = {
    "isend_irecv", "send_irecv", "send_recv", "sendrecv", "put", "get", "neighbor_collective",
    NULL};
static const char *const data_values[] = {"ddt", "pack", NULL};
static const char *const sync_values[] = {"none", "fence", "post_start", NULL};
static const char *const *const attribute_values[AC_HALO_ATTRIBUTES] = {
    partners_values, primitive_values, data_values, sync_values};

const ac_halo_impl *ac_halo_registry(int *count)
{
    *count = (int)(sizeof registry / sizeof registry[0]);
    return registry;
}

const char *ac_halo_attribute_name(int attribute)
{
    return attribute_names[attribute];
}

const char *const *ac_halo_attribute_values(int attribute)
{
    return attribute_values[attribute];
}

int ac_halo_attribute(const ac_halo_impl *impl, int attribute)
{
    const int values[AC_HALO_ATTRIBUTES] = {impl->partners, impl->primitive, impl->data,
                                            impl->sync};
    return values[attribute];
}

int ac_halo_applicable(const ac_halo_impl *impl, const ac_halo *h)
{
    if ((impl->requires & AC_HALO_NEEDS_CARTESIAN) && !(h->cartesian && h->have_coords))
        return 0;
    if ((impl->requires & AC_HALO_NEEDS_NO_SELF) && h->self_neighbour) return 0;
    if ((impl->requires & AC_HALO_NEEDS_WINDOW) && !h->window_ok) return 0;
    if ((impl->requires & AC_HALO_NEEDS_STANDARD_NEIGHBORS) && !h->neighbor_ok) return 0;
    return 1;
}
