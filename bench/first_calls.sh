#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The cost of the first call of each kind (docs/tracer-extras.md, "Start-up and communicator set-up"):
# bench/first_calls.c at p = 2, RUNS runs (a process makes each first call once). Prints, per call, the median and
# range over the runs of its first call and of the next one of its kind, in microseconds: the call of the rank that
# came last (which waited for no one). The replay prices every call as the probe's ping-pong measured a warm one.
# Usage: bench/first_calls.sh [RUNS]   (default 9; needs Open MPI)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-9}
. bench/lib.sh
mpi_ready bench/first_calls.sh
mpicc -O2 bench/first_calls.c -o "$work/first_calls"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((run = 0; run < runs; run++)); do
  mpirun -np 2 "$work/first_calls"
done > "$work/times"
printf '%-16s %12s %16s %12s %16s   (us; %d runs)\n' call "first median" "first range" "next median" "next range" \
  "$runs"
for call in $(awk '{ print $1 }' "$work/times" | awk '!seen[$0]++'); do
  rows=$(awk -v c="$call" '$1 == c { print $2, $3 }' "$work/times")
  printf '%-16s %12s %16s %12s %16s\n' "$call" "$(median 1 <<< "$rows")" "$(range 1 <<< "$rows")" \
    "$(median 2 <<< "$rows")" "$(range 2 <<< "$rows")"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
