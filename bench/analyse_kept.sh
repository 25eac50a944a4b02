#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# simrun analyse's reading time when ranks keep many intervals waiting for their partners (docs/analyse.md, "One pass,
# bounded memory"): ESyS-Particle (Debian esys-particle; bench/measured/esys-drop.py, ours) traced at each p (a master
# and p - 1 workers), whose master's timeline folds its loops, so that its collectives complete late and each worker
# keeps some 11,000 intervals while its messages pair. Prints, per run, the timelines' intervals (their lines outside
# folded loops) and the CPU seconds of `simrun analyse DIR`, per interval beside the goal: under 20 us an interval
# on this 2-core machine (one pass over the later kept intervals when a partner comes, not a move of all of them at
# each interval moved: before that, 29 s for p = 4's 238,000 intervals, 123 us an interval).
# Usage: bench/analyse_kept.sh [P...]   (default p = 2 3 4; needs build/simrun, build/libsimrun-trace.so, Open MPI
# and esys-particle)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
ps=${*:-2 3 4}
lib=$PWD/build/libsimrun-trace.so
if ! command -v esysparticle > /dev/null; then
  echo "bench/analyse_kept.sh: esysparticle not found: apt-get install esys-particle" >&2
  exit 2
fi
if [ ! -f "$lib" ] || [ ! -x build/simrun ]; then
  echo "bench/analyse_kept.sh: build simrun with Open MPI installed first" >&2
  exit 2
fi
mpi_ready bench/analyse_kept.sh
cp bench/measured/esys-drop.py "$work/"
printf '%3s %12s %14s %14s %8s\n' p intervals "analyse (CPU s)" "us/interval" "goal"
for p in $ps; do
  (cd "$work" && mpirun --oversubscribe -np "$p" -x LD_PRELOAD="$lib" -x SIMRUN_TRACE_DIR="t$p" \
    esysparticle esys-drop.py $((p - 1)) > /dev/null 2>&1)
  intervals=$(for f in "$work/t$p"/timeline-*.txt; do zstdcat -f "$f"; done | grep -c -v -E '^(#|d |loop |= )' || true)
  /usr/bin/time -o "$work/time" -f '%U %S' build/simrun analyse "$work/t$p" > /dev/null 2>&1
  cpu=$(awk '{ print $1 + $2 }' "$work/time")
  awk -v p="$p" -v n="$intervals" -v c="$cpu" \
    'BEGIN { us = 1e6 * c / n; printf "%3d %12d %14.2f %14.1f %8s\n", p, n, c, us, us < 20 ? "met" : "not met" }'
done
