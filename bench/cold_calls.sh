#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The cost of an MPI call after a computation (docs/tracer-extras.md, "Start-up and communicator set-up"):
# bench/cold_calls.c at p = 2, an MPI_Allreduce of one int after computations of 0 to 262,144 reads, RUNS runs of 3000
# rounds each. Prints, per computation (its mean time), the call of the rank that came last (which waited for no one):
# mean, median and quartiles in microseconds, of the run with the least median. The replay prices a call as the probe's
# ping-pong measured it, a loop of messages with nothing between; a program that computes between its calls pays more
# per call.
# Usage: bench/cold_calls.sh [RUNS]   (default 3; needs Open MPI)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
. bench/lib.sh
mpi_ready bench/cold_calls.sh
mpicc -O2 bench/cold_calls.c -o "$work/cold_calls"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%8s %12s %10s %10s %10s %10s   (us; of %d runs, the least median)\n' reads computation mean median q1 q3 \
  "$runs"
for words in 0 512 4096 32768 262144; do
  for ((run = 0; run < runs; run++)); do
    mpirun -np 2 "$work/cold_calls" 3000 "$words" | awk '$1 == "words" { print $4, $5, $6, $7, $9 }'
  done | sort -k2,2g | head -1 |
    awk -v w="$words" '{ printf "%8d %12.3f %10.3f %10.3f %10.3f %10.3f\n", w, $5, $1, $2, $3, $4 }'
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
