! SPDX-License-Identifier: LGPL-2.1-or-later
! A Fortran MPI program (`use mpi`) for tests/test_trc_mpi.c: Open MPI's Fortran bindings call PMPI_* directly, past
! the tracer's C wrappers, so the library binds the Fortran names itself (src/tracer/trc_fortran.c). Each rank sends
! its rank to the next around a ring (Irecv, Send, Waitall with statuses), ranks 0 and 1 exchange with Sendrecv, then
! Bcast, Allreduce, a Comm_split and a Barrier on it, a Testany loop and a persistent ring (Recv_init, Send_init,
! Startall, Waitall), then what Debian's CP2K calls besides (its mpi_cart_sub_ went untraced and unnamed): a Cartesian
! sub-communicator (Cart_create 3 x 1, Cart_sub keeping the first dimension) and an Allreduce on it, Comm_split_type
! and a Barrier on it, an Iallgather waited for, a window (Win_create, a Put of the rank into the next rank's window
! between two Win_fence, Win_free: counted since the tracer binds them) and a file (File_open, a name with trailing
! blanks), then a Comm_dup_with_info and a Barrier on it, a ring of matched probes (Send, Mprobe, Mrecv), an Iscan
! waited for, and two rings of receives from any source into 3 integers, of 1 then 2 integers, completed by Waitsome
! and Waitall with statuses ignored. Prints "fortran ok" on rank 0 when every value arrived as sent. Found by the held-out check of
! docs/tracer.md (LLNL's mpi_vector.f left no files, no word).
program fortran_calls
  use mpi
  implicit none
  integer :: ierr, rank, size, total, left, right, got, half, sub, idx, peer, other
  integer :: requests(2), statuses(MPI_STATUS_SIZE, 2), status(MPI_STATUS_SIZE)
  integer :: grid, row, node, win, fh, dims(2), ranks(3), dup, message, three(3), done, indices(1)
  integer, volatile :: slot ! written by the other rank's put: read after the fence, not from a register
  logical :: flag, good, periods(2), remain(2)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  right = mod(rank + 1, size)
  left = mod(rank + size - 1, size)
  call MPI_Irecv(got, 1, MPI_INTEGER, left, 7, MPI_COMM_WORLD, requests(1), ierr)
  requests(2) = MPI_REQUEST_NULL
  call MPI_Send(rank, 1, MPI_INTEGER, right, 7, MPI_COMM_WORLD, ierr)
  call MPI_Waitall(2, requests, statuses, ierr)
  good = got == left .and. statuses(MPI_SOURCE, 1) == left .and. statuses(MPI_TAG, 1) == 7
  peer = 1 - rank
  if (rank < 2) then
    call MPI_Sendrecv(rank, 1, MPI_INTEGER, peer, 3, other, 1, MPI_INTEGER, peer, 3, MPI_COMM_WORLD, status, ierr)
    good = good .and. other == peer .and. status(MPI_SOURCE) == peer
  end if
  half = 0
  if (rank == 0) half = 42
  call MPI_Bcast(half, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  good = good .and. half == 42 .and. total == size * (size - 1) / 2
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, sub, ierr)
  call MPI_Barrier(sub, ierr)
  call MPI_Comm_free(sub, ierr)
  call MPI_Irecv(got, 1, MPI_INTEGER, left, 8, MPI_COMM_WORLD, requests(1), ierr)
  call MPI_Send(rank, 1, MPI_INTEGER, right, 8, MPI_COMM_WORLD, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Testany(1, requests, idx, flag, status, ierr)
  end do
  good = good .and. idx == 1 .and. got == left .and. requests(1) == MPI_REQUEST_NULL
  call MPI_Recv_init(got, 1, MPI_INTEGER, left, 9, MPI_COMM_WORLD, requests(1), ierr)
  call MPI_Send_init(rank, 1, MPI_INTEGER, right, 9, MPI_COMM_WORLD, requests(2), ierr)
  call MPI_Startall(2, requests, ierr)
  call MPI_Waitall(2, requests, MPI_STATUSES_IGNORE, ierr)
  call MPI_Request_free(requests(1), ierr)
  call MPI_Request_free(requests(2), ierr)
  good = good .and. got == left
  dims = (/ size, 1 /)
  periods = .false.
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., grid, ierr)
  remain = (/ .true., .false. /)
  call MPI_Cart_sub(grid, remain, row, ierr)
  call MPI_Allreduce(1, total, 1, MPI_INTEGER, MPI_SUM, row, ierr)
  good = good .and. total == size
  call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, node, ierr)
  call MPI_Barrier(node, ierr)
  call MPI_Iallgather(rank, 1, MPI_INTEGER, ranks, 1, MPI_INTEGER, MPI_COMM_WORLD, requests(1), ierr)
  call MPI_Wait(requests(1), status, ierr)
  good = good .and. ranks(size) == size - 1
  slot = -1
  call MPI_Win_create(slot, 4_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  call MPI_Put(rank, 1, MPI_INTEGER, right, 0_MPI_ADDRESS_KIND, 1, MPI_INTEGER, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  good = good .and. slot == left
  call MPI_Win_free(win, ierr)
  call MPI_File_open(MPI_COMM_WORLD, 'fortran_calls.tmp   ', MPI_MODE_CREATE + MPI_MODE_WRONLY + &
                     MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, fh, ierr)
  good = good .and. ierr == MPI_SUCCESS
  call MPI_File_close(fh, ierr)
  call MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, dup, ierr)
  call MPI_Barrier(dup, ierr)
  call MPI_Comm_free(dup, ierr)
  call MPI_Send(rank, 1, MPI_INTEGER, right, 10, MPI_COMM_WORLD, ierr)
  call MPI_Mprobe(left, 10, MPI_COMM_WORLD, message, status, ierr)
  call MPI_Mrecv(got, 1, MPI_INTEGER, message, status, ierr)
  good = good .and. got == left .and. status(MPI_SOURCE) == left
  call MPI_Iscan(1, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, requests(1), ierr)
  call MPI_Wait(requests(1), status, ierr)
  good = good .and. total == rank + 1
  call MPI_Irecv(three, 3, MPI_INTEGER, MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, requests(1), ierr)
  call MPI_Send(rank, 1, MPI_INTEGER, right, 11, MPI_COMM_WORLD, ierr)
  call MPI_Waitsome(1, requests, done, indices, MPI_STATUSES_IGNORE, ierr)
  good = good .and. done == 1 .and. indices(1) == 1 .and. three(1) == left
  call MPI_Irecv(three, 3, MPI_INTEGER, MPI_ANY_SOURCE, 12, MPI_COMM_WORLD, requests(1), ierr)
  requests(2) = MPI_REQUEST_NULL
  call MPI_Send((/ rank, rank /), 2, MPI_INTEGER, right, 12, MPI_COMM_WORLD, ierr)
  call MPI_Waitall(2, requests, MPI_STATUSES_IGNORE, ierr)
  good = good .and. three(2) == left
  call MPI_Allreduce(MPI_IN_PLACE, good, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. good) print '(a)', 'fortran ok'
  call MPI_Finalize(ierr)
end program fortran_calls
