/*
 * tree.c - the tree shapes of tree.h, as pure functions of (shape, relative rank, size).
 */
#include "coll/common/tree.h"

#include <stdlib.h>

ac_tree ac_tree_of(const ac_params *p)
{
    ac_tree t = {AC_TREE_BINOMIAL, 2};
    if (p) {
        t.kind = p->tree;
        t.k = p->tree == AC_TREE_KNOMIAL ? p->k : 2;
    }
    return t;
}

static int radix(ac_tree t)
{
    return t.kind == AC_TREE_KNOMIAL ? t.k : 2;
}

/* k-nomial: the span of v is k^j for v's lowest non-zero base-k digit j (v's subtree before
 * clipping); the root's span covers everything. */
static long long knomial_span(int k, int v, int size)
{
    long long m = 1;
    if (v == 0) return size;
    while (v % (m * k) == 0)
        m *= k;
    return m;
}

/* Binary pre-order: walk from the root to v; returns v's subtree size, *parent its parent. */
static int binary_walk(int v, int size, int *parent)
{
    int u = 0, n = size, up = -1;
    while (u != v) {
        int left = n / 2;
        up = u;
        if (v <= u + left) {
            u = u + 1;
            n = left;
        } else {
            u = u + 1 + left;
            n = n - 1 - left;
        }
    }
    if (parent) *parent = up;
    return n;
}

int ac_tree_parent(ac_tree t, int v, int size)
{
    int parent;
    if (v == 0) return -1;
    switch (t.kind) {
    case AC_TREE_BINOMIAL:
    case AC_TREE_KNOMIAL: {
        int k = radix(t);
        long long m = knomial_span(k, v, size);
        return (int)(v - v % (m * k));
    }
    case AC_TREE_BINARY:
        binary_walk(v, size, &parent);
        return parent;
    case AC_TREE_CHAIN:
        return v - 1;
    case AC_TREE_FLAT:
        return 0;
    }
    return -1;
}

int ac_tree_subtree(ac_tree t, int v, int size)
{
    switch (t.kind) {
    case AC_TREE_BINOMIAL:
    case AC_TREE_KNOMIAL: {
        long long m = knomial_span(radix(t), v, size);
        return m < size - v ? (int)m : size - v;
    }
    case AC_TREE_BINARY:
        return binary_walk(v, size, NULL);
    case AC_TREE_CHAIN:
        return size - v;
    case AC_TREE_FLAT:
        return v == 0 ? size : 1;
    }
    return 1;
}

int ac_tree_nchildren(ac_tree t, int v, int size)
{
    switch (t.kind) {
    case AC_TREE_BINOMIAL:
    case AC_TREE_KNOMIAL: {
        /* children v + i*m for m = 1, k, k^2, ... below the span, i = 1 .. k-1, while < size:
         * they come in increasing order, so they stop at the first one past the end */
        int k = radix(t), n = 0;
        long long span = knomial_span(k, v, size);
        for (long long m = 1; m < span; m *= k)
            for (int i = 1; i < k; i++) {
                if (v + i * m >= size) return n;
                n++;
            }
        return n;
    }
    case AC_TREE_BINARY: {
        int n = binary_walk(v, size, NULL);
        return n >= 3 ? 2 : n - 1;
    }
    case AC_TREE_CHAIN:
        return v + 1 < size ? 1 : 0;
    case AC_TREE_FLAT:
        return v == 0 ? size - 1 : 0;
    }
    return 0;
}

int ac_tree_child(ac_tree t, int v, int size, int i)
{
    switch (t.kind) {
    case AC_TREE_BINOMIAL:
    case AC_TREE_KNOMIAL: {
        int k = radix(t);
        long long m = 1;
        for (int level = i / (k - 1); level > 0; level--)
            m *= k;
        return (int)(v + (i % (k - 1) + 1) * m);
    }
    case AC_TREE_BINARY:
        return i == 0 ? v + 1 : v + 1 + binary_walk(v, size, NULL) / 2;
    case AC_TREE_CHAIN:
        return v + 1;
    case AC_TREE_FLAT:
        return i + 1;
    }
    return -1;
}

int ac_tree_node_get(ac_tree t, int root, int rank, int size, ac_tree_node *node)
{
    node->child = node->child_size = NULL;
    node->nchildren = 0;
    if (size < 1 || root < 0 || root >= size || rank < 0 || rank >= size ||
        (t.kind == AC_TREE_KNOMIAL && t.k < 2) || (unsigned)t.kind > AC_TREE_KNOMIAL)
        return MPI_ERR_ARG;
    int v = (rank - root + size) % size, parent = ac_tree_parent(t, v, size);
    node->vrank = v;
    node->parent = parent < 0 ? -1 : (parent + root) % size;
    node->subtree = ac_tree_subtree(t, v, size);
    node->nchildren = ac_tree_nchildren(t, v, size);
    if (node->nchildren == 0) return MPI_SUCCESS;
    node->child = malloc((size_t)node->nchildren * sizeof *node->child);
    node->child_size = malloc((size_t)node->nchildren * sizeof *node->child_size);
    if (!node->child || !node->child_size) {
        ac_tree_node_free(node);
        return MPI_ERR_NO_MEM;
    }
    /* child i's subtree runs up to child i+1 (the last one up to the end of v's subtree) */
    for (int i = 0; i < node->nchildren; i++) {
        int c = ac_tree_child(t, v, size, i);
        int next = i + 1 < node->nchildren ? ac_tree_child(t, v, size, i + 1) : v + node->subtree;
        node->child[i] = (c + root) % size;
        node->child_size[i] = next - c;
    }
    return MPI_SUCCESS;
}

void ac_tree_node_free(ac_tree_node *node)
{
    free(node->child);
    free(node->child_size);
    node->child = node->child_size = NULL;
    node->nchildren = 0;
}

void ac_tree_send_order(const ac_tree_node *node, int *order)
{
    /* insertion sort from the last child: stable, so later children stay first among equals */
    for (int n = 0, i = node->nchildren - 1; i >= 0; i--, n++) {
        int at = n;
        while (at > 0 && node->child_size[order[at - 1]] < node->child_size[i]) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = i;
    }
}
