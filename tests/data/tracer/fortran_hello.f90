! A Fortran MPI program (tests/test_trc_mpi.c): Open MPI's Fortran bindings call PMPI_* directly, past the tracer's C
! wrappers, so the tracer must say that it traced nothing. Found by the held-out check of docs/tracer.md (LLNL's
! mpi_vector.f left no files and no word).
program fortran_hello
  use mpi
  implicit none
  integer :: ierr, rank, total
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)
end program fortran_hello
