/*
 * node_order.c - the node layout (src/coll/common/nodes.c) on communicators whose order is not
 * the world's: world, reversed, odd/even. On each, the invariants node-aware algorithms rely
 * on: a node's leader is its lowest rank of the communicator and local rank 0 of the node
 * communicator, local ranks follow the communicator's order, the leaders' communicator holds the
 * leaders in node order; then every node-aware algorithm of alltoall and allgather run on int
 * data with a closed-form result (no native reference: SMPI's own alltoall and allgather fail
 * on some of the harness's cases, tests/simgrid/CMakeLists.txt). SMPI's MPI_Comm_split_type
 * ignores the key (../shared/FACTS.md); it made node_aware abort on a reversed communicator.
 *
 *   node_order      prints "node_order: N passed, 0 failed"
 */
#include "coll/coll.h"
#include "coll/common/common.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

static void check(int ok, const char *comm_name, const char *what, int rank)
{
    if (ok) {
        passed++;
        return;
    }
    failed++;
    printf("FAIL %s: %s (rank %d)\n", comm_name, what, rank);
}

static void layout(MPI_Comm comm, const char *name)
{
    int rank, size, lrank;
    const ac_nodes *n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (ac_nodes_get(comm, &n) != MPI_SUCCESS) {
        check(0, name, "ac_nodes_get failed", rank);
        return;
    }
    int lowest = rank;
    for (int r = 0; r < size; r++)
        if (n->node_of[r] == n->node && r < lowest) lowest = r;
    check(n->leader_of[n->node] == lowest, name, "the leader is the node's lowest rank", rank);
    MPI_Comm_rank(n->local, &lrank);
    check(lrank == n->local_rank && lrank == n->local_rank_of[rank], name,
          "local rank agrees with the table", rank);
    check((lrank == 0) == (rank == lowest), name, "local rank 0 is the leader", rank);
    /* local ranks follow the communicator's order */
    int below = 0;
    for (int r = 0; r < rank; r++) below += n->node_of[r] == n->node;
    check(below == lrank, name, "local ranks in the communicator's order", rank);
    if (rank == lowest) {
        int leader_rank = -1;
        check(n->leaders != MPI_COMM_NULL, name, "a leader has the leaders' communicator", rank);
        if (n->leaders != MPI_COMM_NULL) MPI_Comm_rank(n->leaders, &leader_rank);
        check(leader_rank == n->node, name, "leaders in node order", rank);
    } else {
        check(n->leaders == MPI_COMM_NULL, name, "only leaders hold the leaders' comm", rank);
    }
}

static void algorithms(MPI_Comm comm, const char *name)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    const ac_collective colls[] = {AC_ALLTOALL, AC_ALLGATHER};
    for (int k = 0; k < 2; k++) {
        ac_algorithm_list l = ac_registry_for_size(colls[k], size);
        for (int i = 0; i < l.count; i++) {
            const ac_algorithm *a = l.algorithms[i];
            if (!strstr(a->name, "node")) continue;
            ac_call call = {.collective = colls[k], .size = size, .count = 2, .bytes = 8,
                            .op = MPI_OP_NULL};
            const char *why = NULL;
            if (!ac_applicable(a, &call, &why)) continue;
            int *sb = malloc(sizeof(int) * 2 * (size_t)size);
            int *rb = malloc(sizeof(int) * 2 * (size_t)size);
            int ok = 1, rc;
            for (int j = 0; j < 2 * size; j++) {
                sb[j] = rank * 1000 + j;
                rb[j] = -1;
            }
            if (colls[k] == AC_ALLTOALL)
                rc = a->fn.alltoall(sb, 2, MPI_INT, rb, 2, MPI_INT, comm, a->params);
            else
                rc = a->fn.allgather(sb, 2, MPI_INT, rb, 2, MPI_INT, comm, a->params);
            for (int r = 0; r < size; r++)
                for (int j = 0; j < 2; j++) {
                    int want = colls[k] == AC_ALLTOALL ? r * 1000 + 2 * rank + j : r * 1000 + j;
                    ok &= rb[2 * r + j] == want;
                }
            char what[160];
            snprintf(what, sizeof what, "%s %s gives the defined result",
                     ac_collective_name(colls[k]), a->name);
            check(rc == MPI_SUCCESS && ok, name, what, rank);
            free(sb);
            free(rb);
        }
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm reversed, oddeven;
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - 1 - rank, &reversed);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &oddeven);
    const struct {
        const char *name;
        MPI_Comm comm;
    } comms[] = {{"world", MPI_COMM_WORLD}, {"reversed", reversed}, {"oddeven", oddeven}};
    for (int c = 0; c < 3; c++) {
        layout(comms[c].comm, comms[c].name);
        algorithms(comms[c].comm, comms[c].name);
    }
    int totals[2] = {passed, failed};
    MPI_Allreduce(MPI_IN_PLACE, totals, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("node_order: %d passed, %d failed\n", totals[0], totals[1]);
    MPI_Comm_free(&reversed);
    MPI_Comm_free(&oddeven);
    MPI_Finalize();
    return totals[1] != 0;
}
