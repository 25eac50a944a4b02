#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The tracer on a loaded machine (docs/tracer.md, the TI `compute` amounts): bench/trc_loaded.c at p = 2, two ranks
# that exchange a message after each 11 us of work, beside as many busy loops as the machine has online cores, RUNS
# times each alternately: untraced, untraced reading the thread's CPU clock around each exchange (as the tracer once
# did), and traced. Prints each kind's median wall time and its ratio to the untraced one, the traced one beside issue
# 47's 1.2x. Then the same without the busy loops, for the quiet machine's ratio.
# Usage: bench/loaded.sh [N [RUNS]]   (default N = 20000 exchanges, RUNS = 3; needs build/libsimrun-trace.so and Open MPI)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20000}
runs=${2:-3}
. bench/lib.sh
tracer_ready bench/loaded.sh
mpicc -O2 -I bench bench/trc_loaded.c -o "$work/trc_loaded"
# measure LABEL: RUNS runs of each kind into $work/LABEL-KIND, then the medians.
measure() {
  for _ in $(seq "$runs"); do
    mpirun -np 2 "$work/trc_loaded" "$n" | awk '/^wall/ { print $2 }' >> "$work/$1-untraced"
    mpirun -np 2 "$work/trc_loaded" "$n" clock | awk '/^wall/ { print $2 }' >> "$work/$1-clock"
    rm -rf "$work/trace"
    mpirun -np 2 -x LD_PRELOAD="$lib" -x SIMRUN_TRACE_DIR="$work/trace" "$work/trc_loaded" "$n" 2> /dev/null |
      awk '/^wall/ { print $2 }' >> "$work/$1-traced"
  done
  local plain
  plain=$(median < "$work/$1-untraced")
  printf '%s (%d exchanges, %d runs each, median wall s)\n' "$1" "$n" "$runs"
  printf '  %-32s %8.3f\n' untraced "$plain"
  printf '  %-32s %8.3f  %5.2fx\n' "untraced, CPU clock read" "$(median < "$work/$1-clock")" \
    "$(echo "$(median < "$work/$1-clock") $plain" | awk '{ print $1 / $2 }')"
  echo "$(median < "$work/$1-traced") $plain" |
    awk '{ r = $1 / $2; printf "  %-32s %8.3f  %5.2fx (target 1.2x: %s)\n", "traced", $1, r, r <= 1.2 ? "met" : "not met" }'
}
cores=$(getconf _NPROCESSORS_ONLN)
busy_loops "$cores"
measure "beside $cores busy loops"
busy_loops_stop
measure "quiet"
