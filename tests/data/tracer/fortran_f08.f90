! SPDX-License-Identifier: LGPL-2.1-or-later
! A Fortran MPI program on `use mpi_f08` for tests/test_trc_mpi.c: Open MPI's mpi_f08 bindings reach the mpif.h ones
! under other names (ompi_NAME_f, pmpi_NAME_), which the tracer binds too (src/tracer/trc_fortran.c). Each rank sends
! its rank to the next around a ring (Irecv, Send, Waitall with statuses), ranks 0 and 1 exchange with Sendrecv, then
! Bcast, Allreduce, a Comm_split and a Barrier on it, a ring completed by a Test loop (a binding with a LOGICAL), a
! Cartesian grid (Cart_create size x 1, Cart_sub keeping the first dimension) and an Allreduce on its row, a ring
! received with MPI_STATUS_IGNORE, and a window (Win_create, a Put of the rank into the next rank's window between two
! Win_fence, Win_free). Prints "f08 ok" on rank 0 when every value arrived as sent.
program fortran_f08
  use mpi_f08
  implicit none
  integer :: rank, size, total, left, right, got, half, peer, other, dims(2)
  type(MPI_Request) :: requests(2), request
  type(MPI_Status) :: statuses(2), status
  type(MPI_Comm) :: sub, grid, row
  type(MPI_Win) :: win
  integer, volatile :: slot ! written by the other rank's put: read after the fence, not from a register
  logical :: flag, good, periods(2), remain(2)
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  right = mod(rank + 1, size)
  left = mod(rank + size - 1, size)
  call MPI_Irecv(got, 1, MPI_INTEGER, left, 7, MPI_COMM_WORLD, requests(1))
  requests(2) = MPI_REQUEST_NULL
  call MPI_Send(rank, 1, MPI_INTEGER, right, 7, MPI_COMM_WORLD)
  call MPI_Waitall(2, requests, statuses)
  good = got == left .and. statuses(1)%MPI_SOURCE == left .and. statuses(1)%MPI_TAG == 7
  peer = 1 - rank
  if (rank < 2) then
    call MPI_Sendrecv(rank, 1, MPI_INTEGER, peer, 3, other, 1, MPI_INTEGER, peer, 3, MPI_COMM_WORLD, status)
    good = good .and. other == peer .and. status%MPI_SOURCE == peer
  end if
  half = 0
  if (rank == 0) half = 42
  call MPI_Bcast(half, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  good = good .and. half == 42 .and. total == size * (size - 1) / 2
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, sub)
  call MPI_Barrier(sub)
  call MPI_Comm_free(sub)
  call MPI_Irecv(got, 1, MPI_INTEGER, left, 8, MPI_COMM_WORLD, request)
  call MPI_Send(rank, 1, MPI_INTEGER, right, 8, MPI_COMM_WORLD)
  flag = .false.
  do while (.not. flag)
    call MPI_Test(request, flag, status)
  end do
  good = good .and. got == left .and. status%MPI_SOURCE == left
  dims = (/ size, 1 /)
  periods = .false.
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., grid)
  remain = (/ .true., .false. /)
  call MPI_Cart_sub(grid, remain, row)
  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, row)
  good = good .and. total == size * (size - 1) / 2
  call MPI_Irecv(got, 1, MPI_INTEGER, left, 9, MPI_COMM_WORLD, request)
  call MPI_Send(rank, 1, MPI_INTEGER, right, 9, MPI_COMM_WORLD)
  call MPI_Wait(request, MPI_STATUS_IGNORE)
  good = good .and. got == left
  slot = -1
  call MPI_Win_create(slot, 4_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win)
  call MPI_Win_fence(0, win)
  call MPI_Put(rank, 1, MPI_INTEGER, right, 0_MPI_ADDRESS_KIND, 1, MPI_INTEGER, win)
  call MPI_Win_fence(0, win)
  good = good .and. slot == left
  call MPI_Win_free(win)
  call MPI_Allreduce(good, flag, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD)
  if (rank == 0 .and. flag) print '(a)', 'f08 ok'
  call MPI_Finalize()
end program fortran_f08
