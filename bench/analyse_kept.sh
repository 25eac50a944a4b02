#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# simrun analyse's reading time when ranks keep many intervals waiting for their partners (docs/analyse.md, "One pass,
# bounded memory"): ESyS-Particle (Debian esys-particle; bench/measured/esys-drop.py, ours) traced at each p (a master
# and p - 1 workers), whose master's timeline folds its loops, so that its collectives complete late and each worker
# keeps some 11,000 intervals while its messages pair. Prints, per run, the timelines' intervals (their lines outside
# folded loops) and the CPU seconds of `simrun analyse DIR`, per interval beside the goal: under 20 us an interval
# on this 2-core machine (one pass over the later kept intervals when a partner comes, not a move of all of them at
# each interval moved: before that, 29 s for p = 4's 238,000 intervals, 123 us an interval).
# Then the same for Murasaki (Debian murasaki-mpi: anchors between two sequences of 200,000 bases, the second the first
# with one base in 20 changed, seeded) at p = 2, whose hashing rank sends some 275,000 messages and polls with MPI_Test
# beside hundreds of outstanding operations: some 2 million intervals (before a run of polls that completed nothing
# was spared a look at each of them, a run of 2.27 million took 270 s, 119 us an interval).
# Usage: bench/analyse_kept.sh [P...]   (default p = 2 3 4; needs build/simrun, build/libsimrun-trace.so, Open MPI,
# esys-particle and murasaki-mpi)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
ps=${*:-2 3 4}
lib=$PWD/build/libsimrun-trace.so
if ! command -v esysparticle > /dev/null || ! command -v murasaki-mpi > /dev/null; then
  echo "bench/analyse_kept.sh: esysparticle or murasaki-mpi not found: apt-get install esys-particle murasaki-mpi" >&2
  exit 2
fi
if [ ! -f "$lib" ] || [ ! -x build/simrun ]; then
  echo "bench/analyse_kept.sh: build simrun with Open MPI installed first" >&2
  exit 2
fi
mpi_ready bench/analyse_kept.sh
cp bench/measured/esys-drop.py "$work/"
# row NAME P DIR: the intervals of DIR's timelines, the CPU time of simrun analyse DIR, per interval, beside the goal
row() {
  local intervals cpu
  intervals=$(for f in "$3"/timeline-*.txt; do zstdcat -f "$f"; done | grep -c -v -E '^(#|d |loop |= )' || true)
  /usr/bin/time -o "$work/time" -f '%U %S' build/simrun analyse "$3" > /dev/null 2>&1
  cpu=$(awk '{ print $1 + $2 }' "$work/time")
  awk -v name="$1" -v p="$2" -v n="$intervals" -v c="$cpu" 'BEGIN { us = 1e6 * c / n
    printf "%-9s %3d %12d %14.2f %14.1f %8s\n", name, p, n, c, us, us < 20 ? "met" : "not met" }'
}
printf '%-9s %3s %12s %14s %14s %8s\n' program p intervals "analyse (CPU s)" "us/interval" "goal"
for p in $ps; do
  (cd "$work" && mpirun --oversubscribe -np "$p" -x LD_PRELOAD="$lib" -x SIMRUN_TRACE_DIR="t$p" \
    esysparticle esys-drop.py $((p - 1)) > /dev/null 2>&1)
  row esys "$p" "$work/t$p"
done
murasaki_input "$work"
(cd "$work" && mpirun --oversubscribe -np 2 -x LD_PRELOAD="$lib" -x SIMRUN_TRACE_DIR=murasaki murasaki-mpi \
  -p11101001010011011 a.fa b.fa > /dev/null 2>&1) || { echo "bench/analyse_kept.sh: murasaki-mpi failed" >&2; exit 1; }
row murasaki 2 "$work/murasaki"
