! SPDX-License-Identifier: LGPL-2.1-or-later
! A Fortran wait by polling many requests (tests/test_trc_mpi.c, docs/tracer.md "Runs of polls"): rank 0 posts N
! receives (the argument, default 64) and tests them with MPI_Testsome back to back, no work between, until all came;
! rank 1 sends them after some 50 ms of CPU time of its own. Rank 0 times its loop with cpu_time and prints "polled CPU
! SECONDS TESTS". The Fortran binding turns N request handles from Fortran's and back around each test (malloc'd
! beyond 16), work of the test's, not of the program between its tests. Run on 2 ranks.
program poll_many
  use mpi
  implicit none
  integer :: ierr, rank, n, i, left, outcount
  integer, allocatable :: values(:), requests(:), indices(:)
  integer(8) :: tests
  double precision :: start, now, x
  character(len=16) :: arg
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  n = 64
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  allocate (values(n), requests(n), indices(n))
  values = 0
  if (rank == 0) then
    do i = 1, n
      call MPI_Irecv(values(i), 1, MPI_INTEGER, 1, i, MPI_COMM_WORLD, requests(i), ierr)
    end do
    tests = 0
    left = n
    call cpu_time(start)
    do while (left > 0)
      call MPI_Testsome(n, requests, outcount, indices, MPI_STATUSES_IGNORE, ierr)
      tests = tests + 1
      if (outcount /= MPI_UNDEFINED) left = left - outcount
    end do
    call cpu_time(now)
    print '(a, f10.6, i10)', 'polled CPU ', now - start, tests
  else if (rank == 1) then
    x = 1.0d0
    call cpu_time(start)
    now = start
    do while (now - start < 0.05d0)
      do i = 1, 10000
        x = x*0.999999d0 + 1d-9
      end do
      call cpu_time(now)
    end do
    values = int(x)
    do i = 1, n
      call MPI_Send(values(i), 1, MPI_INTEGER, 0, i, MPI_COMM_WORLD, ierr)
    end do
  end if
  call MPI_Finalize(ierr)
end program poll_many
