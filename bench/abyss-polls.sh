#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# What Debian's ABySS loses to its polls on a shared core (docs/history/validation.md, "What ABySS's polls cost"), the case
# and reads of bench/debian.sh (ABYSS-P -k25, 8000 reads of 100 bases of a random 20 kb genome):
# 1. one core (taskset -c 0, mpi_yield_when_idle = 1): p = 1 and p = 2, RUNS runs each, every rank under
#    /usr/bin/time: wall, user, system seconds and involuntary context switches (each a yield to the core-mate);
# 2. p = 4 bound to the cores in turn (--bind-to core:overload-allowed --map-by core), the same per rank;
# 3. one traced run of each (after the untraced ones), its polls per rank (the TI trace's `poll COUNT`), and its
#    replay on this machine's probed platform (one host for the one-core case) with each `poll COUNT` replayed as it
#    is (nothing), then as COUNT times PRICE microseconds of computation on its host, for each PRICE given: the
#    what-if of a price per unsuccessful poll, a switch to the core-mate and back (not a model simrun has).
# Measured: the traced run's span (simrun analyse's "measured"), and the median of the untraced runs' mpirun wall
# times less the median of RUNS runs of an empty MPI program under the same mpirun (its start-up, MPI_Init and
# MPI_Finalize, which a replay does not predict; bench/debian.sh takes them off the same way).
# Timed figures: run it at priority and say the load (the script prints the load average before and after).
# Usage: bench/abyss-polls.sh [RUNS [PRICE_US...]]   (default 3 runs, prices 1.1 and 1.97; needs Open MPI, abyss)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
runs=${1:-3}
shift || true
prices=("$@")
[ ${#prices[@]} -gt 0 ] || prices=(1.1 1.97)
[ -x /usr/lib/abyss/ABYSS-P ] || { echo "bench/abyss-polls.sh: /usr/lib/abyss/ABYSS-P missing (apt-get install abyss)" >&2; exit 2; }
lib=$PWD/build/libsimrun-trace.so
simrun=$PWD/build/simrun
repo=$PWD
mpi_ready bench/abyss-polls.sh
cd "$work"
awk -f "$repo/bench/measured/abyss-reads.awk" > reads.fa
# shellcheck disable=SC2016 # $OMPI_COMM_WORLD_RANK and $@ are the wrapper's own
printf '#!/bin/sh\nexec /usr/bin/time -o "%s/time.$OMPI_COMM_WORLD_RANK" -f "%%e %%U %%S %%c" "$@"\n' "$work" > perrank
chmod +x perrank
printf '#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return 0; }\n' > empty.c
mpicc empty.c -o empty
"$simrun" machine probe here.xml > /dev/null
grep -v core-1 here.xml > one-core.xml
speed=$(sed -n 's/.*host id="core-0" speed="\([0-9.e+]*\)f".*/\1/p' here.xml)
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# run NAME NP MPIRUN-ARGS...: RUNS untraced runs with each rank's times, then one traced run into trace-NAME
run() {
  local name=$1 np=$2
  shift 2
  echo "== $name, p = $np (per rank: wall user system involuntary-switches)"
  : > walls
  : > empties
  for ((i = 0; i < runs; i++)); do
    /usr/bin/time -a -o walls -f '%e' "$@" -np "$np" ./perrank /usr/lib/abyss/ABYSS-P -k25 reads.fa -o out.fa \
      > /dev/null 2> err.txt
    printf 'mpirun %s s:' "$(tail -1 walls)"
    for ((r = 0; r < np; r++)); do printf '  %s' "$(cat "time.$r")"; done
    echo
    /usr/bin/time -a -o empties -f '%e' "$@" -np "$np" ./empty
  done
  echo "untraced: median $(lower_median < walls) s less the empty program's $(lower_median < empties) s"
  "$@" -np "$np" -x "LD_PRELOAD=$lib" -x "SIMRUN_TRACE_DIR=$work/trace-$name" -x "SIMRUN_TRACE_FLOPS=$speed" \
    /usr/lib/abyss/ABYSS-P -k25 reads.fa -o out.fa > /dev/null 2> err.txt
}
# replay NAME PLATFORM: the traced run's polls per rank, its replay as it is, then with each price per poll
replay() {
  local name=$1 platform=$2
  printf 'traced run, polls per rank:'
  for f in "trace-$name"/rank-*.txt; do printf ' %s' "$(awk '$2 == "poll" { n += $3 } END { print n + 0 }' "$f")"; done
  echo
  echo "replay as it is: $("$simrun" analyse "trace-$name" --replay-on "$platform" | awk '/^Replayed/ { getline; getline; print }')"
  for price in "${prices[@]}"; do
    rm -rf priced
    mkdir priced
    sed "s#trace-$name/#priced/#" "trace-$name/index.txt" > priced/index.txt
    cp "trace-$name"/timeline-* priced/
    for f in "trace-$name"/rank-*.txt; do
      awk -v us="$price" -v speed="$speed" '$2 == "poll" { printf "%s compute %.0f\n", $1, $3 * us * 1e-6 * speed; next }
                                             { print }' "$f" > "priced/${f##*/}"
    done
    echo "each poll $price us: $("$simrun" analyse priced --replay-on "$platform" | awk '/^Replayed/ { getline; getline; print }')"
  done
}
run one-core-p1 1 taskset -c 0 mpirun --oversubscribe --bind-to none -x OMPI_MCA_mpi_yield_when_idle=1
replay one-core-p1 one-core.xml
run one-core-p2 2 taskset -c 0 mpirun --oversubscribe --bind-to none -x OMPI_MCA_mpi_yield_when_idle=1
replay one-core-p2 one-core.xml
run bound-p4 4 mpirun --oversubscribe --bind-to core:overload-allowed --map-by core
replay bound-p4 here.xml
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
