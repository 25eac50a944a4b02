# SPDX-License-Identifier: LGPL-2.1-or-later
# shellcheck shell=bash
# The statistics the bench scripts print, and the set-up of those that run MPI programs, sourced by them
# (`. bench/lib.sh` from the repository's root): one definition each, where eight scripts had their own copies of the
# statistics in two meanings.

# mpi_ready SCRIPT: exits 2 naming SCRIPT when mpicc or mpirun is missing; lets Open MPI's mpirun run as root; makes
# $work, a temporary folder removed at the script's exit, with busy_loops' loops still running stopped.
mpi_ready() {
  if ! command -v mpicc > /dev/null || ! command -v mpirun > /dev/null; then
    echo "$1: mpicc or mpirun not found (Debian: libopenmpi-dev, openmpi-bin)" >&2
    exit 2
  fi
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  work=$(mktemp -d)
  loops=()
  trap 'busy_loops_stop; rm -rf "$work"' EXIT
}

# busy_loops N: starts N busy loops (a loaded machine), their process ids in $loops; busy_loops_stop stops them.
busy_loops() {
  local i
  for ((i = 0; i < $1; i++)); do
    sh -c 'while :; do :; done' &
    loops+=($!)
  done
}

busy_loops_stop() {
  [ ${#loops[@]} -eq 0 ] || kill "${loops[@]}"
  loops=()
}

# tracer_ready SCRIPT: sets $lib to build/libsimrun-trace.so, exiting 2 naming SCRIPT when it is not built (run from the
# repository's root), then mpi_ready SCRIPT.
tracer_ready() {
  lib=$PWD/build/libsimrun-trace.so
  [ -f "$lib" ] || { echo "$1: $lib not built; build simrun with Open MPI installed" >&2; exit 2; }
  mpi_ready "$1"
}

# median [COLUMN] < lines: the median of that column's numbers (default the first), the mean of the two middle ones
# for an even count; "-" for no lines.
# murasaki_input DIR: Murasaki's input (bench/analyse_kept.sh, bench/debian.sh), two sequences of 200,000 bases in
# DIR/a.fa and DIR/b.fa, the second the first with one base in 20 drawn again, seeded.
murasaki_input() {
  awk -v a="$1/a.fa" -v b="$1/b.fa" 'BEGIN { srand(26); print ">a" > a; print ">b" > b
    for (i = 0; i < 200000; i++) {
      c = substr("ACGT", int(rand() * 4) + 1, 1); la = la c; lb = lb (i % 20 ? c : substr("ACGT", int(rand() * 4) + 1, 1))
      if (length(la) == 70 || i == 199999) { print la > a; print lb > b; la = lb = "" } } }'
}

median() {
  local c=${1:-1}
  sort -g -k "$c" | awk -v c="$c" '{ v[NR] = $c }
    END { if (!NR) print "-"; else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# lower_median < lines: the middle number, the lower of the two for an even count (a value that was measured, not
# a mean of two); "-" for no lines.
lower_median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'; }

# range [COLUMN] < lines: that column's least and largest numbers (default the first), "LEAST-LARGEST".
range() {
  local c=${1:-1}
  sort -g -k "$c" | awk -v c="$c" 'NR == 1 { lo = $c } { hi = $c } END { print lo "-" hi }'
}
