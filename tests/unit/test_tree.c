/*
 * test_tree.c - the tree engine (src/coll/common/tree.c) without MPI.
 *
 * For every shape (binomial, binary, chain, flat, k-nomial with k = 2 .. 7) and many (size,
 * root): every non-root rank has exactly one parent and appears exactly once among its
 * parent's children, the root has none; parent and child relations agree; following parents
 * from any rank reaches the root within `size` steps (connected, acyclic: a tree with size-1
 * edges); the subtree of every rank is exactly its descendants and a run of consecutive
 * relative ranks, tiled in order by its children's subtrees; the relative-numbering functions
 * agree with ac_tree_node_get(); depths and fan-outs are those of the shape; the binomial tree
 * is MPICH's (parent clears the lowest set bit); the send order is a permutation by decreasing
 * subtree size; bad arguments are refused.
 */
#include "coll/common/tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
static long checks;

#define CHECK(cond, ...) check((cond), #cond, __LINE__, __VA_ARGS__)

static int check(int ok, const char *what, int line, const char *shape, int size, int root,
                 int rank)
{
    checks++;
    if (!ok && failures < 40)
        fprintf(stderr, "test_tree.c:%d: %s size=%d root=%d rank=%d: check failed: %s\n", line,
                shape, size, root, rank, what);
    if (!ok) failures++;
    return ok;
}

static int ceil_log(int k, int n)
{
    int d = 0;
    for (long long m = 1; m < n; m *= k)
        d++;
    return d;
}

static void test_tree(ac_tree t, const char *shape, int size, int root)
{
    ac_tree_node *node = calloc((size_t)size, sizeof *node);
    int *seen_as_child = calloc((size_t)size, sizeof(int));
    int *descendants = calloc((size_t)size, sizeof(int));
    int edges = 0, max_depth = 0, max_children = 0;

    for (int r = 0; r < size; r++) {
        int rc = ac_tree_node_get(t, root, r, size, &node[r]);
        if (!CHECK(rc == MPI_SUCCESS, shape, size, root, r)) goto out;
    }
    for (int r = 0; r < size; r++) {
        ac_tree_node *n = &node[r];
        int v = (r - root + size) % size;
        CHECK(n->vrank == v, shape, size, root, r);
        CHECK((n->parent == -1) == (r == root), shape, size, root, r);
        CHECK(n->subtree >= 1 && v + n->subtree <= size, shape, size, root, r);
        if (r == root) CHECK(n->subtree == size, shape, size, root, r);
        edges += n->nchildren;
        if (n->nchildren > max_children) max_children = n->nchildren;
        /* the relative functions say the same */
        int rp = ac_tree_parent(t, v, size);
        CHECK(rp == (n->parent < 0 ? -1 : (n->parent - root + size) % size), shape, size, root, r);
        CHECK(ac_tree_subtree(t, v, size) == n->subtree, shape, size, root, r);
        CHECK(ac_tree_nchildren(t, v, size) == n->nchildren, shape, size, root, r);
        /* children: by increasing relative rank, tiling (v, v + subtree) in order, each one's
         * parent is r and its subtree the size recorded here */
        int next = v + 1, total = 1;
        for (int i = 0; i < n->nchildren; i++) {
            int c = n->child[i], cv = (c - root + size) % size;
            CHECK(c >= 0 && c < size && c != r, shape, size, root, r);
            if (c < 0 || c >= size) continue;
            CHECK(ac_tree_child(t, v, size, i) == cv, shape, size, root, r);
            CHECK(cv == next, shape, size, root, r);
            CHECK(node[c].parent == r, shape, size, root, r);
            CHECK(node[c].subtree == n->child_size[i], shape, size, root, r);
            seen_as_child[c]++;
            next = cv + n->child_size[i];
            total += n->child_size[i];
        }
        CHECK(next == v + n->subtree && total == n->subtree, shape, size, root, r);
        /* send order: a permutation, by decreasing subtree size */
        if (n->nchildren > 0) {
            int *order = malloc((size_t)n->nchildren * sizeof *order);
            int *hit = calloc((size_t)n->nchildren, sizeof *hit);
            ac_tree_send_order(n, order);
            for (int i = 0; i < n->nchildren; i++) {
                CHECK(order[i] >= 0 && order[i] < n->nchildren, shape, size, root, r);
                if (order[i] < 0 || order[i] >= n->nchildren) continue;
                hit[order[i]]++;
                if (i > 0)
                    CHECK(n->child_size[order[i - 1]] >= n->child_size[order[i]], shape, size, root,
                          r);
            }
            for (int i = 0; i < n->nchildren; i++)
                CHECK(hit[i] == 1, shape, size, root, r);
            free(order);
            free(hit);
        }
    }
    /* exactly one parent per non-root rank, size - 1 edges */
    for (int r = 0; r < size; r++)
        CHECK(seen_as_child[r] == (r == root ? 0 : 1), shape, size, root, r);
    CHECK(edges == size - 1, shape, size, root, -1);
    /* connected and acyclic: parents lead to the root; the subtree of every ancestor of w
     * contains w, and subtree sizes count exactly the descendants */
    for (int w = 0; w < size; w++) {
        int a = w, steps = 0, wv = (w - root + size) % size;
        while (a != -1 && steps <= size) {
            int av = node[a].vrank;
            CHECK(wv >= av && wv < av + node[a].subtree, shape, size, root, w);
            descendants[a]++;
            if (node[a].parent == -1) break;
            a = node[a].parent;
            steps++;
        }
        CHECK(a == root, shape, size, root, w);
        if (steps > max_depth) max_depth = steps;
    }
    for (int r = 0; r < size; r++)
        CHECK(descendants[r] == node[r].subtree, shape, size, root, r);

    /* the shapes */
    switch (t.kind) {
    case AC_TREE_BINOMIAL:
        for (int r = 0; r < size; r++) {
            int v = node[r].vrank;
            if (v) CHECK(node[r].parent == ((v & (v - 1)) + root) % size, shape, size, root, r);
        }
        CHECK(max_depth <= ceil_log(2, size), shape, size, root, -1);
        break;
    case AC_TREE_KNOMIAL:
        CHECK(max_depth <= ceil_log(t.k, size), shape, size, root, -1);
        CHECK(max_children <= (t.k - 1) * ceil_log(t.k, size), shape, size, root, -1);
        break;
    case AC_TREE_BINARY:
        CHECK(max_children <= 2, shape, size, root, -1);
        CHECK(max_depth == ceil_log(2, size + 1) - 1, shape, size, root, -1); /* floor(log2) */
        break;
    case AC_TREE_CHAIN:
        CHECK(max_depth == size - 1 && max_children <= 1, shape, size, root, -1);
        break;
    case AC_TREE_FLAT:
        CHECK(max_depth == (size > 1) && max_children == size - 1, shape, size, root, -1);
        break;
    }
out:
    for (int r = 0; r < size; r++)
        ac_tree_node_free(&node[r]);
    free(node);
    free(seen_as_child);
    free(descendants);
}

int main(void)
{
    static const int big[] = {100, 127, 128, 129, 255, 256, 257, 1000, 1024, 1025};
    ac_tree shapes[11] = {
        {AC_TREE_BINOMIAL, 2}, {AC_TREE_BINARY, 2}, {AC_TREE_CHAIN, 2}, {AC_TREE_FLAT, 2}};
    const char *names[11] = {"binomial", "binary", "chain", "flat"};
    char knames[6][16];
    int nshapes = 4;
    for (int k = 2; k <= 7; k++, nshapes++) {
        snprintf(knames[k - 2], sizeof knames[0], "knomial_k%d", k);
        shapes[nshapes] = (ac_tree){AC_TREE_KNOMIAL, k};
        names[nshapes] = knames[k - 2];
    }
    for (int s = 0; s < nshapes; s++) {
        for (int size = 1; size <= 70; size++) {
            int roots[5] = {0, 1 % size, size / 2, size - 1, (7 * size) / 11};
            for (int i = 0; i < 5; i++)
                test_tree(shapes[s], names[s], size, roots[i]);
        }
        for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
            test_tree(shapes[s], names[s], big[i], 0);
            test_tree(shapes[s], names[s], big[i], big[i] / 3);
        }
    }
    /* k-nomial with k = 2 is the binomial tree */
    for (int size = 1; size <= 40; size++)
        for (int v = 0; v < size; v++) {
            ac_tree b = {AC_TREE_BINOMIAL, 2}, k2 = {AC_TREE_KNOMIAL, 2};
            CHECK(ac_tree_parent(b, v, size) == ac_tree_parent(k2, v, size) &&
                      ac_tree_subtree(b, v, size) == ac_tree_subtree(k2, v, size) &&
                      ac_tree_nchildren(b, v, size) == ac_tree_nchildren(k2, v, size),
                  "knomial_k2", size, 0, v);
        }
    /* the parameters of the instances: NULL is binomial; k is read for k-nomial only */
    {
        ac_params kn = {.tree = AC_TREE_KNOMIAL, .k = 4}, ch = {.tree = AC_TREE_CHAIN, .k = 9};
        ac_tree t0 = ac_tree_of(NULL), t1 = ac_tree_of(&kn), t2 = ac_tree_of(&ch);
        CHECK(t0.kind == AC_TREE_BINOMIAL && t0.k == 2, "params", 0, 0, 0);
        CHECK(t1.kind == AC_TREE_KNOMIAL && t1.k == 4, "params", 0, 0, 0);
        CHECK(t2.kind == AC_TREE_CHAIN && t2.k == 2, "params", 0, 0, 0);
        CHECK(ac_binary_tree_segment_8k.tree == AC_TREE_BINARY &&
                  ac_binary_tree_segment_8k.segment == 8192,
              "params", 0, 0, 0);
        CHECK(ac_knomial_tree_k4.tree == AC_TREE_KNOMIAL && ac_knomial_tree_k4.k == 4 &&
                  ac_knomial_tree_k4.segment == 0,
              "params", 0, 0, 0);
    }
    /* bad arguments */
    {
        ac_tree_node n;
        ac_tree k1 = {AC_TREE_KNOMIAL, 1}, b = {AC_TREE_BINOMIAL, 2};
        CHECK(ac_tree_node_get(k1, 0, 0, 4, &n) == MPI_ERR_ARG, "args", 4, 0, 0);
        CHECK(ac_tree_node_get(b, 4, 0, 4, &n) == MPI_ERR_ARG, "args", 4, 4, 0);
        CHECK(ac_tree_node_get(b, 0, -1, 4, &n) == MPI_ERR_ARG, "args", 4, 0, -1);
        CHECK(ac_tree_node_get(b, 0, 0, 0, &n) == MPI_ERR_ARG, "args", 0, 0, 0);
    }
    printf("test_tree: %ld checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
