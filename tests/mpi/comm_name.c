/*
 * comm_name.c - one collective on a communicator whose name is not valid UTF-8 (Latin-1 bytes,
 * a truncated sequence, an encoded surrogate) next to a valid accented letter: the layer's JSON
 * report must still be valid JSON, which requires UTF-8 (tests/tools/test_layer.py).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int one = 1, sum = 0, size;
    MPI_Comm c;
    MPI_Init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_name(c, "caf\xc3\xa9 na\xefve \xff\xfe \xed\xa0\x80 end\xe2\x82");
    MPI_Comm_size(c, &size);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c);
    printf("comm_name: %s\n", sum == size ? "ok" : "WRONG");
    MPI_Finalize();
    return sum != size;
}
