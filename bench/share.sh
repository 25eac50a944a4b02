#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# What an oversubscribed Open MPI rank that waits keeps of the cores (docs/history/validation.md, "What a waiting rank keeps"):
# bench/measured/share.c under mpirun --oversubscribe --bind-to none, with mpi_yield_when_idle = 1 (Open MPI's default
# when oversubscribed: a progress pass that found nothing calls sched_yield) and, for comparison, 0 (it spins):
# 1. one core (taskset -c 0): rank 0 computes, 0, 1 or 2 ranks wait for it: the computing rank's CPU over its wall
#    time, and the waiters' CPU, is the share of a core a waiting rank keeps beside a computing one;
# 2. two cores, 4 ranks: ranks 0 and 1 compute, 2 and 3 wait (for rank 0 and rank 1): each rank's CPU over wall;
# 3. one core, 2 ranks, yield on: rank 0 computes (at once, or in pieces of 10000 or 1000 multiply-adds with an
#    unsuccessful MPI_Iprobe after each), rank 1 polls for its message with MPI_Iprobe in a loop (an application's
#    own polling, as ABySS's): each rank's CPU over wall and count of polls, and rank 0 alone for comparison;
# 4. the one-way time of an 8-byte ping-pong whose two ranks each share their core with a computing process: how late
#    a waiting rank notices its message while its core computes (the scheduler's turn), against no such process;
# 5. one core, 2 ranks: rank 0 polls with MPI_Iprobe while rank 1 waits in MPI_Recv, yield on and off: rank 0's wall
#    time a poll less its own CPU time is the waiting rank's turn at each poll.
# RUNS runs of each line (in part 3, and one of rank 0 alone). CPU times, not wall times, are what a loaded machine
# leaves readable: say the load with the figures (the script prints the load average before and after).
# Usage: bench/share.sh [RUNS]   (default 3; needs Open MPI and at least 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
runs=${1:-3}
mpi_ready bench/share.sh
mpicc -O2 bench/measured/share.c -o "$work/share"
run() { # CORES YIELD NP ARGS...: one mpirun of the program
  local cores=$1 yield=$2 np=$3
  shift 3
  taskset -c "$cores" mpirun --oversubscribe --bind-to none -x "OMPI_MCA_mpi_yield_when_idle=$yield" -np "$np" \
    "$work/share" "$@"
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for yield in 1 0; do
  echo "== mpi_yield_when_idle = $yield"
  echo "one core, rank 0 computing, the others waiting (rank cpu/wall s):"
  for np in 1 2 3; do for _ in $(seq "$runs"); do run 0 "$yield" "$np" share 200000000 1; done; done
  echo "two cores, ranks 0 and 1 computing, 2 and 3 waiting:"
  for _ in $(seq "$runs"); do run 0,1 "$yield" 4 share 200000000 2; done
done
echo "== one core, mpi_yield_when_idle = 1: rank 0 computing in pieces of C with an MPI_Iprobe after each, rank 1 polling"
echo "   (rank cpu/wall s polls)"
for c in 0 10000 1000; do
  for _ in $(seq "$runs"); do echo "C = $c: $(run 0 1 2 poll 200000000 0 "$c")"; done
  echo "C = $c, rank 0 alone: $(run 0 1 1 poll 200000000 0 "$c")"
done
echo "== 8-byte ping-pong, each rank on its own core, mpi_yield_when_idle = 1"
for _ in $(seq "$runs"); do
  run 0,1 1 2 wake 20000 0
  run 0,1 1 2 wake 500 1
done
echo "== one core, 2 ranks: rank 0 polls 20000 times while rank 1 waits in MPI_Recv, mpi_yield_when_idle = 1, then 0"
for yield in 1 0; do
  for _ in $(seq "$runs"); do echo "yield $yield: $(run 0 "$yield" 2 turn 20000)"; done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
