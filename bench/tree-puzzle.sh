#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The loop of docs/validation.md ("A measured machine") on an unmodified Debian program: tree-ppuzzle (Debian's
# tree-ppuzzle, a master-worker on MPI_Probe) on EF.phy of its examples, at each P: the median of RUNS untraced runs
# (mpirun's wall time: the program cannot time its own span), the same for a program that only calls MPI_Init and
# MPI_Finalize (what a replay, which starts at the end of MPI_Init, does not predict), one run traced at the probed
# flop rate (the platform probed with --pool), then `simrun analyse --replay-on` against the untraced time less that
# start and end, and the wait states.
# Usage: bench/tree-puzzle.sh [RUNS [P...]]   (default 3 runs, p = 2 3 4; needs tree-ppuzzle, Debian's
# tree-ppuzzle package, not a dependency of the project; build/simrun, build/libsimrun-trace.so and Open MPI)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
runs=${1:-3}
shift || true
ps=${*:-2 3 4}
command -v tree-ppuzzle > /dev/null || { echo "bench/tree-puzzle.sh: tree-ppuzzle not found (Debian: tree-ppuzzle)" >&2; exit 2; }
mpi_ready bench/tree-puzzle.sh
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return 0; }\n' > "$work/hello.c"
mpicc "$work/hello.c" -o "$work/hello"
build/simrun machine probe "$work/probed.xml" --pool
flops=$(sed -n 's/.*SIMRUN_TRACE_FLOPS=\([0-9.e+]*\).*/\1/p' "$work/probed.xml" | head -1)
cd "$work"
# wall P PROGRAM [ARG]: mpirun's wall seconds (tree-ppuzzle answers its menu with y and writes next to its input)
wall() {
  rm -f EF.phy.*
  echo y | /usr/bin/time -f '%e' -o wall.txt mpirun --oversubscribe -np "$1" "${@:2}" > /dev/null 2>&1
  cat wall.txt
}
cp /usr/share/doc/tree-puzzle/examples/EF.phy .
dirs=()
untraced=()
for p in $ps; do
  run=$(for _ in $(seq "$runs"); do wall "$p" tree-ppuzzle EF.phy; done | median)
  bare=$(for _ in $(seq "$runs"); do wall "$p" ./hello; done | median)
  echo "p = $p: tree-ppuzzle $run s, MPI_Init + MPI_Finalize alone $bare s (medians of $runs mpirun wall times)"
  untraced+=(--untraced "$p=$(awk -v a="$run" -v b="$bare" 'BEGIN { print a - b }')")
  rm -f EF.phy.*
  echo y | mpirun --oversubscribe -np "$p" -x LD_PRELOAD="$OLDPWD/build/libsimrun-trace.so" -x SIMRUN_TRACE_DIR="$work/trace-$p" \
    -x SIMRUN_TRACE_FLOPS="$flops" tree-ppuzzle EF.phy > /dev/null 2>&1
  dirs+=("trace-$p")
done
"$OLDPWD/build/simrun" analyse "${dirs[@]}" --replay-on probed.xml "${untraced[@]}" |
  sed -n '/^Wait states/,/^ *all/p;/^Replayed on/,$p'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
