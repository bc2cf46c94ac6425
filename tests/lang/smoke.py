"""mpi4py smoke test: the collectives through mpi4py's buffer interface (no numpy needed), with
MPI_IN_PLACE wherever MPI allows it; every result is checked. Under MPICH mpi4py calls the MPI-4
large-count symbols (MPI_Allreduce_c, ...), under Open MPI 4.1 the plain ones.

run_lang.py checks the layer's report: each call is counted exactly once.
Calls per rank: allreduce 2, alltoall 1, allgather 1, bcast 1, reduce 1, barrier 1.
"""

from array import array
import sys

from mpi4py import MPI


def main():
    comm = MPI.COMM_WORLD
    rank, p = comm.Get_rank(), comm.Get_size()
    errors = []

    def expect(ok, what):
        if not ok:
            errors.append(what)

    tri = p * (p - 1) // 2

    # allreduce: sum, then in place max
    send = array("i", [rank + i for i in range(5)])
    recv = array("i", [0] * 5)
    comm.Allreduce([send, MPI.INT], [recv, MPI.INT], op=MPI.SUM)
    expect(list(recv) == [tri + p * i for i in range(5)], "allreduce sum")
    buf = array("d", [float(rank * i) for i in range(5)])
    comm.Allreduce(MPI.IN_PLACE, [buf, MPI.DOUBLE], op=MPI.MAX)
    expect(list(buf) == [float((p - 1) * i) for i in range(5)], "allreduce in place max")

    # alltoall: element j goes to rank j
    send = array("i", [rank * 100 + j for j in range(p)])
    recv = array("i", [0] * p)
    comm.Alltoall([send, MPI.INT], [recv, MPI.INT])
    expect(list(recv) == [j * 100 + rank for j in range(p)], "alltoall")

    # allgather in place
    buf = array("i", [-1] * p)
    buf[rank] = rank * 7 + 1
    comm.Allgather(MPI.IN_PLACE, [buf, MPI.INT])
    expect(list(buf) == [j * 7 + 1 for j in range(p)], "allgather in place")

    # bcast from rank 1 (rank 0 on one process)
    root = 1 % p
    buf = array("i", [42 + i if rank == root else 0 for i in range(5)])
    comm.Bcast([buf, MPI.INT], root=root)
    expect(list(buf) == [42 + i for i in range(5)], "bcast")

    # reduce to the last rank, in place at the root
    root = p - 1
    buf = array("i", [rank + i for i in range(5)])
    if rank == root:
        comm.Reduce(MPI.IN_PLACE, [buf, MPI.INT], op=MPI.SUM, root=root)
        expect(list(buf) == [tri + p * i for i in range(5)], "reduce in place")
    else:
        comm.Reduce([buf, MPI.INT], None, op=MPI.SUM, root=root)

    comm.Barrier()

    if errors:
        print(f"smoke.py: rank {rank}: wrong results: {', '.join(errors)}", flush=True)
        comm.Abort(1)
    if rank == 0:
        library = MPI.Get_library_version().splitlines()[0].split(",")[0].replace("\t", " ")
        print(f"smoke.py: all results correct ({library})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
