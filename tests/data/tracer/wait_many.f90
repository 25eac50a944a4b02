! SPDX-License-Identifier: LGPL-2.1-or-later
! wait_many.c's loop from Fortran (`use mpi`; tests/test_trc_mpi.c): ROUNDS rounds (the second argument, default 50)
! of N/2 receives from the rank itself and N/2 sends to it, all of tag 0 (N the first argument, default 4096), then
! one MPI_Waitall over the N, with no work between. The Fortran binding turns the N handles and statuses from
! Fortran's and back around the wait (malloc'd beyond 16): the recorder's time, not the computation before or after
! it. Run on 1 rank.
program wait_many
  use mpi
  implicit none
  integer :: ierr, n, rounds, i, k
  integer, allocatable :: values(:), requests(:)
  character(len=16) :: arg
  call MPI_Init(ierr)
  n = 4096
  rounds = 50
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  if (command_argument_count() > 1) then
    call get_command_argument(2, arg)
    read (arg, *) rounds
  end if
  n = max(n, 2)
  allocate (values(n), requests(n))
  values = 0
  do k = 1, rounds
    do i = 1, n/2
      call MPI_Irecv(values(i), 1, MPI_INTEGER, 0, 0, MPI_COMM_SELF, requests(i), ierr)
    end do
    do i = 1, n/2
      call MPI_Isend(values(n/2 + i), 1, MPI_INTEGER, 0, 0, MPI_COMM_SELF, requests(n/2 + i), ierr)
    end do
    call MPI_Waitall(n, requests, MPI_STATUSES_IGNORE, ierr)
  end do
  call MPI_Finalize(ierr)
end program wait_many
