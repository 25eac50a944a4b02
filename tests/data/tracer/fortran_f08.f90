! SPDX-License-Identifier: LGPL-2.1-or-later
! A Fortran MPI program on `use mpi_f08`, whose bindings the tracer does not bind (Open MPI's call PMPI_* directly):
! tests/test_trc_mpi.c checks that the library says once that it traced nothing, rather than leaving no word.
program fortran_f08
  use mpi_f08
  implicit none
  integer :: rank, total
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call MPI_Finalize()
end program fortran_f08
