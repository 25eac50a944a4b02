#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Issue 26's loop closed on Debian's programs as a user closes it (docs/history/validation.md, "Runs of polls"): this
# machine probed (simrun machine probe), then for each program and p: RUNS untraced runs, each after a run of an empty
# MPI program under the same mpirun (the start-up a replay does not predict: the measured time is the median of the
# first less the median of the second), then one run traced with SIMRUN_TRACE_FLOPS at the probe's rate; the traces
# replayed on the probed platform by simrun analyse --replay-on against the untraced times (--untraced), then against
# the traced runs' own T_par (which other work on the machine moves less than the untraced medians). Programs (Debian
# packages: apt-get install abyss liggghts ptscotch ray hyphy-mpi quantum-espresso): ABySS (ABYSS-P -k25 on
# bench/measured/abyss-reads.awk's reads; it polls with MPI_Iprobe and MPI_Request_get_status between pieces of its
# work), LIGGGHTS (bench/measured/liggghts-pour.in), PT-Scotch's dgord (bench/measured/grid.awk's 500 x 500 grid, one
# thread a rank), Ray (Ray -k 21 on ABySS' reads; it polls with MPI_Iprobe, and at p = 1 sends to itself), HyPhy (FEL
# on its own p51.nex; rank 0 hands sites to the others and polls for their answers with MPI_Iprobe; the binary without
# SIMD, which Debian's /usr/bin/HYPHYMPI falls back to, called directly: that wrapper passes its arguments as one) and
# Quantum ESPRESSO's pw.x (bench/measured/si-scf.in: silicon's self-consistent field, 8 x 8 x 8 k-points, with Debian's
# pseudopotential; its ranks exchange FFT pieces and reduce often: 165,074 messages and 85,225 collectives at p = 4 in a
# 3.3 s run). With BIND=core, every run binds its ranks to the cores in turn, as bench/measured.sh's. The load average
# is printed before and after: time it at priority (docs/validation.md). With LOAD=N, N busy loops run beside every run
# (a loaded machine: the traced runs are disturbed, and their measured time is a range, docs/analyse.md).
# Usage: [BIND=core] [WHICH=REGEX] [LOAD=N] bench/here.sh [RUNS [P...]]   (default 5 runs, p = 1 2 3 4; WHICH: of abyss,
# liggghts, dgord, ray, hyphy, espresso, default all; needs build/simrun, build/libsimrun-trace.so and Open MPI). Ranks
# beyond the cores share them (--oversubscribe): say so with the figures.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/bench/lib.sh"
simrun=$repo/build/simrun
lib=$repo/build/libsimrun-trace.so
runs=${1:-5}
shift || true
ps=${*:-1 2 3 4}
which=${WHICH:-.}
for f in /usr/lib/abyss/ABYSS-P /usr/bin/liggghts /usr/bin/dgord /usr/bin/Ray /usr/lib/hyphy/bin/HYPHYMPI /usr/bin/pw.x; do
  [ -e "$f" ] || {
    echo "bench/here.sh: $f missing (apt-get install abyss liggghts ptscotch ray hyphy-mpi quantum-espresso)" >&2
    exit 2
  }
done
mpi_ready bench/here.sh
export SCOTCH_PTHREAD_NUMBER=1
cd "$work"
bind=() # Open MPI's default: a core each up to the cores, unbound beyond
if [ "${BIND:-}" = core ]; then
  bind=(--bind-to core:overload-allowed --map-by core)
fi
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$simrun" machine probe here.xml # on the machine as it is before the loops start
busy_loops "${LOAD:-0}"
flops=$(sed -n 's/.*SIMRUN_TRACE_FLOPS=\([0-9.e+]*\).*/\1/p' here.xml | head -1)
awk -f "$repo/bench/measured/abyss-reads.awk" > abyss-reads.fa
cp "$repo/bench/measured/liggghts-pour.in" in.pour
awk -v n=500 -f "$repo/bench/measured/grid.awk" > grid.grf
cp /usr/share/hyphy/data/p51.nex . # HyPhy's FEL writes p51.nex.FEL.json beside it
cp "$repo/bench/measured/si-scf.in" .
printf '#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return 0; }\n' > empty.c
mpicc -O2 empty.c -o empty
# wall COMMAND...: its wall seconds (its output to out.txt); a run over 10 minutes stops the bench (an untraced
# ABySS-P at p = 4 unbound on 2 cores once spun for 7 minutes where its runs take 3 s: all four ranks polling)
wall() {
  local start status=0
  start=$(date +%s.%N)
  timeout 600 "$@" > out.txt 2> /dev/null || status=$?
  if [ "$status" = 124 ]; then
    echo "bench/here.sh: '$*' ran over 10 minutes; stopped: run the bench again" >&2
    exit 1
  fi
  [ "$status" = 0 ] || exit "$status"
  awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.6f\n", e - s }'
}
# one NAME COMMAND...: the program at every p, then its two tables
one() {
  local name=$1
  shift
  [[ $name =~ $which ]] || return 0
  local dirs=() untraced=() p i
  for p in $ps; do
    local mpirun=(mpirun --oversubscribe "${bind[@]}" -np "$p")
    : > empty.txt
    : > plain.txt
    for ((i = 0; i < runs; i++)); do
      wall "${mpirun[@]}" ./empty >> empty.txt
      rm -rf "${fresh:-/nonexistent}"
      wall "${mpirun[@]}" "$@" >> plain.txt
    done
    rm -rf "$name-$p" "${fresh:-/nonexistent}"
    "${mpirun[@]}" -x "LD_PRELOAD=$lib" -x "SIMRUN_TRACE_DIR=$PWD/$name-$p" -x "SIMRUN_TRACE_FLOPS=$flops" "$@" \
      > /dev/null 2>&1
    echo "$name p = $p: untraced $(range < plain.txt) s, an empty MPI program $(range < empty.txt) s (mpirun's)"
    dirs+=("$name-$p")
    untraced+=(--untraced "$p=$(awk -v u="$(median < plain.txt)" -v e="$(median < empty.txt)" 'BEGIN { print u - e }')")
  done
  "$simrun" analyse "${dirs[@]}" --replay-on here.xml "${untraced[@]}" | sed -n '/^Replayed on/,$p'
  "$simrun" analyse "${dirs[@]}" --replay-on here.xml | sed -n '/^Replayed on/,/^Placement/p' | sed '/^Placement/d'
}
one abyss /usr/lib/abyss/ABYSS-P -k25 abyss-reads.fa -o abyss.fa
one liggghts /usr/bin/liggghts -in in.pour -log none
one dgord env SCOTCH_PTHREAD_NUMBER=1 /usr/bin/dgord grid.grf grid.ord # one thread a rank (PT-Scotch 7's own variable)
fresh=ray-out one ray /usr/bin/Ray -k 21 -s abyss-reads.fa -o ray-out # Ray refuses an output folder that exists
one hyphy /usr/lib/hyphy/bin/HYPHYMPI LIBPATH=/usr/share/hyphy fel --alignment p51.nex
one espresso /usr/bin/pw.x -in si-scf.in
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
