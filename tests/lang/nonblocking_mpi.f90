! nonblocking_mpi.f90 - the nonblocking collectives and the request completion calls through the
! mpi module (body: nonblocking_body.inc).
! run_lang.py checks the layer's report: each call is counted exactly once.
program nonblocking_mpi
    use mpi
    implicit none
    include 'nonblocking_body.inc'
end program nonblocking_mpi

include 'nonblocking_subroutines.inc'
