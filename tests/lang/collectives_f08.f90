! collectives_f08.f90 - the collectives through the mpi_f08 module, with MPI_IN_PLACE wherever MPI
! allows it, MPI_BOTTOM, and a non-commutative user-defined operation; every result is checked.
! run_lang.py checks the layer's report: each call below is counted exactly once.
! Calls per rank: allreduce 3, alltoall 1, alltoallv 1, allgather 1, allgatherv 1, bcast 2,
! reduce 1, gather 1, scatter 1, reduce_scatter 1, reduce_scatter_block 1, barrier 1,
! neighbor_alltoall 1.
! With the argument "thread" it initialises with MPI_INIT_THREAD.
module collectives_f08_ops
    implicit none
contains
    ! A non-commutative, associative operation: a o b = a.
    subroutine left_projection(invec, inoutvec, len, datatype)
        use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
        use mpi_f08, only: MPI_Datatype
        type(c_ptr), value :: invec, inoutvec
        integer :: len
        type(MPI_Datatype) :: datatype
        integer, pointer :: a(:), b(:)
        call c_f_pointer(invec, a, [len])
        call c_f_pointer(inoutvec, b, [len])
        b(1:len) = a(1:len)
    end subroutine left_projection
end module collectives_f08_ops

program collectives_f08
    use mpi_f08
    use collectives_f08_ops, only: left_projection
    implicit none
    integer :: ierr, provided, rank, nprocs, i, j, k, root, nerr, total
    type(MPI_Comm) :: cart
    integer :: dims(1), left, right
    logical :: periods(1)
    type(MPI_Op) :: op
    type(MPI_Datatype) :: newtype
    integer :: ia(5), ib(5), bb(3)
    volatile :: bb
    double precision :: da(5)
    integer, allocatable :: sa(:), ra(:), sc(:), sd(:), rc(:), rd(:)
    integer(kind=MPI_ADDRESS_KIND) :: addr(1)
    integer :: blens(1)
    character(len=16) :: arg

    nerr = 0
    call get_command_argument(1, arg)
    if (arg == 'thread') then
        call MPI_INIT_THREAD(MPI_THREAD_FUNNELED, provided, ierr)
        call expect(ierr == MPI_SUCCESS .and. provided >= MPI_THREAD_SINGLE, 'init_thread', nerr)
    else
        call MPI_INIT(ierr)
    end if
    call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
    call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
    allocate(sa(4 * nprocs * nprocs), ra(4 * nprocs * nprocs))
    allocate(sc(nprocs), sd(nprocs), rc(nprocs), rd(nprocs))

    ! allreduce: sum, in place max, user operation (left projection: the result is rank 0's)
    do i = 1, 5
        ia(i) = rank + i
        da(i) = dble(rank * i)
    end do
    call MPI_ALLREDUCE(ia, ib, 5, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    do i = 1, 5
        call expect(ib(i) == nprocs * (nprocs - 1) / 2 + nprocs * i, 'allreduce sum', nerr)
    end do
    call MPI_ALLREDUCE(MPI_IN_PLACE, da, 5, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
    do i = 1, 5
        call expect(abs(da(i) - dble((nprocs - 1) * i)) < 0.5d0, 'allreduce in place max', nerr)
    end do
    call MPI_OP_CREATE(left_projection, .false., op, ierr)
    do i = 1, 5
        ia(i) = rank * 10 + i
    end do
    call MPI_ALLREDUCE(ia, ib, 5, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
    do i = 1, 5
        call expect(ib(i) == i, 'allreduce user op', nerr)
    end do
    call MPI_OP_FREE(op, ierr)

    ! alltoall: element j goes to rank j
    do j = 0, nprocs - 1
        sa(j + 1) = rank * 100 + j
    end do
    call MPI_ALLTOALL(sa, 1, MPI_INTEGER, ra, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    do j = 0, nprocs - 1
        call expect(ra(j + 1) == j * 100 + rank, 'alltoall', nerr)
    end do

    ! alltoallv: rank r sends r+j+1 elements to rank j
    total = 0
    do j = 0, nprocs - 1
        sc(j + 1) = rank + j + 1
        sd(j + 1) = total
        total = total + sc(j + 1)
    end do
    do j = 0, nprocs - 1
        do k = 1, sc(j + 1)
            sa(sd(j + 1) + k) = rank * 1000 + j * 10 + k
        end do
    end do
    call MPI_ALLTOALLV(sa, sc, sd, MPI_INTEGER, ra, sc, sd, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    do j = 0, nprocs - 1
        do k = 1, sc(j + 1)
            call expect(ra(sd(j + 1) + k) == j * 1000 + rank * 10 + k, 'alltoallv', nerr)
        end do
    end do

    ! allgather in place
    ra(1:nprocs) = -1
    ra(rank + 1) = rank * 7 + 1
    call MPI_ALLGATHER(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ra, 1, MPI_INTEGER, MPI_COMM_WORLD, &
                       ierr)
    do j = 0, nprocs - 1
        call expect(ra(j + 1) == j * 7 + 1, 'allgather in place', nerr)
    end do

    ! allgatherv: rank r contributes r+1 copies of r
    total = 0
    do j = 0, nprocs - 1
        rc(j + 1) = j + 1
        rd(j + 1) = total
        total = total + rc(j + 1)
    end do
    sa(1:rank + 1) = rank
    call MPI_ALLGATHERV(sa, rank + 1, MPI_INTEGER, ra, rc, rd, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    do j = 0, nprocs - 1
        do k = 1, rc(j + 1)
            call expect(ra(rd(j + 1) + k) == j, 'allgatherv', nerr)
        end do
    end do

    ! bcast from rank 1 (rank 0 on one process), then from rank 0 through MPI_BOTTOM
    root = mod(1, nprocs)
    ia = 0
    if (rank == root) ia = (/ (42 + i, i = 1, 5) /)
    call MPI_BCAST(ia, 5, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    do i = 1, 5
        call expect(ia(i) == 42 + i, 'bcast', nerr)
    end do
    bb = 0
    if (rank == 0) bb = (/ 7, 8, 9 /)
    call MPI_GET_ADDRESS(bb, addr(1), ierr)
    blens(1) = 3
    call MPI_TYPE_CREATE_HINDEXED(1, blens, addr, MPI_INTEGER, newtype, ierr)
    call MPI_TYPE_COMMIT(newtype, ierr)
    call MPI_BCAST(MPI_BOTTOM, 1, newtype, 0, MPI_COMM_WORLD, ierr)
    call MPI_TYPE_FREE(newtype, ierr)
    call expect(bb(1) == 7 .and. bb(2) == 8 .and. bb(3) == 9, 'bcast MPI_BOTTOM', nerr)

    ! reduce to the last rank, in place at the root
    root = nprocs - 1
    do i = 1, 5
        ia(i) = rank + i
    end do
    if (rank == root) then
        call MPI_REDUCE(MPI_IN_PLACE, ia, 5, MPI_INTEGER, MPI_SUM, root, MPI_COMM_WORLD, ierr)
        do i = 1, 5
            call expect(ia(i) == nprocs * (nprocs - 1) / 2 + nprocs * i, 'reduce in place', nerr)
        end do
    else
        call MPI_REDUCE(ia, ib, 5, MPI_INTEGER, MPI_SUM, root, MPI_COMM_WORLD, ierr)
    end if

    ! gather to rank 0, in place at the root
    if (rank == 0) then
        ra(1:nprocs) = -1
        ra(1) = 5
        call MPI_GATHER(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ra, 1, MPI_INTEGER, 0, &
                        MPI_COMM_WORLD, ierr)
        do j = 0, nprocs - 1
            call expect(ra(j + 1) == j * 3 + 5, 'gather in place', nerr)
        end do
    else
        ia(1) = rank * 3 + 5
        call MPI_GATHER(ia, 1, MPI_INTEGER, ra, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    end if

    ! scatter from rank 0, in place at the root: two elements each
    if (rank == 0) then
        do j = 0, nprocs - 1
            sa(2 * j + 1) = j * 11 + 2
            sa(2 * j + 2) = j * 11 + 3
        end do
        call MPI_SCATTER(sa, 2, MPI_INTEGER, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, 0, &
                         MPI_COMM_WORLD, ierr)
        call expect(sa(1) == 2 .and. sa(2) == 3, 'scatter in place', nerr)
    else
        call MPI_SCATTER(sa, 2, MPI_INTEGER, ib, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
        call expect(ib(1) == rank * 11 + 2 .and. ib(2) == rank * 11 + 3, 'scatter', nerr)
    end if

    ! reduce_scatter: rank j gets j+1 elements
    total = nprocs * (nprocs + 1) / 2
    do k = 1, total
        sa(k) = rank + k
    end do
    call MPI_REDUCE_SCATTER(sa, ra, rc, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    do k = 1, rank + 1
        call expect(ra(k) == nprocs * (nprocs - 1) / 2 + nprocs * (rd(rank + 1) + k), &
                    'reduce_scatter', nerr)
    end do

    ! reduce_scatter_block in place: two elements each
    do k = 1, 2 * nprocs
        sa(k) = rank * k
    end do
    call MPI_REDUCE_SCATTER_BLOCK(MPI_IN_PLACE, sa, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    do k = 1, 2
        call expect(sa(k) == (2 * rank + k) * nprocs * (nprocs - 1) / 2, &
                    'reduce_scatter_block in place', nerr)
    end do

    ! neighbor_alltoall on a 1-D periodic Cartesian communicator: block 1 goes to the left
    ! neighbour and arrives in its block 2, block 2 to the right one (its block 1)
    dims(1) = nprocs
    periods(1) = .true.
    call MPI_CART_CREATE(MPI_COMM_WORLD, 1, dims, periods, .false., cart, ierr)
    call MPI_CART_SHIFT(cart, 0, 1, left, right, ierr)
    ia(1) = rank * 10 + 1
    ia(2) = rank * 10 + 2
    call MPI_NEIGHBOR_ALLTOALL(ia, 1, MPI_INTEGER, ib, 1, MPI_INTEGER, cart, ierr)
    call expect(ib(1) == left * 10 + 2 .and. ib(2) == right * 10 + 1, 'neighbor_alltoall', nerr)
    call MPI_COMM_FREE(cart, ierr)

    call MPI_BARRIER(MPI_COMM_WORLD, ierr)
    call expect(ierr == MPI_SUCCESS, 'barrier', nerr)

    if (nerr > 0) then
        print '(a, i0, a, i0, a)', 'collectives_f08: rank ', rank, ': ', nerr, ' errors'
        call MPI_ABORT(MPI_COMM_WORLD, 1, ierr)
    end if
    if (rank == 0) print '(a)', 'collectives_f08: all results correct'
    call MPI_FINALIZE(ierr)
end program collectives_f08

subroutine expect(ok, what, nerr)
    implicit none
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    integer, intent(inout) :: nerr
    if (.not. ok) then
        nerr = nerr + 1
        print '(a, a)', 'collectives_f08: wrong result: ', what
    end if
end subroutine expect

