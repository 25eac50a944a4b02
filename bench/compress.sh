#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The cost of the tracer's compression of large files (docs/tracer.md, "Large files"), on ScaLAPACK's LU test (xdlu,
# Debian's scalapack-mpi-test, with its LU.dat) at p = 4:
# - cpu: RUNS rounds in a shuffled order of untraced, traced (default bounds: at p = 4, 8 MiB / p, so xdlu's files beyond 2 MiB are zstd) and traced
#   with every file compressed (SIMRUN_TRACE_COMPRESS=1); the least CPU seconds (user + system of mpirun and its ranks)
#   of each, and the traced folder's bytes on disk and of text.
# - callgrind: one run of each under valgrind --tool=callgrind (its run lasts over 10 s, so the 1 MiB bound applies and
#   the files are compressed as a long run's are); rank 0's instructions: the whole rank, the library's own functions
#   (exclusive) and the compression (inclusive: zstd's ZSTD_compressStream2, or zlib's deflate in an older library).
# Usage: bench/compress.sh cpu [RUNS] [LIB] | callgrind [LIB]   (RUNS = 3; LIB = build/libsimrun-trace.so)
# Time it at the highest priority on a shared machine: setsid bash -c 'echo -20 > /proc/$$/autogroup; exec nice -n
# -20 bench/compress.sh cpu 3'
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
mode=${1:-cpu}
[ $# -eq 0 ] || shift
runs=3
if [ "$mode" = cpu ] && [ $# -gt 0 ]; then
  runs=$1
  shift
fi
lib=$(realpath -m "${1:-build/libsimrun-trace.so}")
lu=/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests
if [ ! -e "$lib" ] || [ ! -e "$lu/xdlu" ]; then
  echo "bench/compress.sh: needs $lib (build simrun) and $lu/xdlu (apt-get install scalapack-mpi-test)" >&2
  exit 2
fi
mpi_ready bench/compress.sh
cd "$work"
cp "$lu/LU.dat" . # xdlu reads its input from the current folder
# The mpirun options of configuration $1.
options() {
  case $1 in
    untraced) ;;
    traced) echo "-x LD_PRELOAD=$lib -x SIMRUN_TRACE_DIR=$work/trace" ;;
    compressed) echo "-x LD_PRELOAD=$lib -x SIMRUN_TRACE_DIR=$work/trace -x SIMRUN_TRACE_COMPRESS=1" ;;
  esac
}
# The bytes of the trace folder on disk, and of its text.
sizes() {
  [ -d trace ] || return 0
  local text=0
  for f in trace/*.txt; do text=$((text + $(zstdcat -f "$f" | wc -c))); done
  echo "$(du -sb trace | cut -f1) bytes on disk, $text of text"
}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$mode" = callgrind ]; then
  for config in untraced traced; do
    rm -rf trace cg.*.out
    # shellcheck disable=SC2046
    mpirun --oversubscribe -np 4 $(options $config) valgrind --tool=callgrind \
      --callgrind-out-file="$work/cg.%q{OMPI_COMM_WORLD_RANK}.out" "$lu/xdlu" > /dev/null 2>&1
    total=$(callgrind_annotate cg.0.out | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
    own=$(callgrind_annotate --inclusive=no --threshold=100 cg.0.out |
      awk -v lib="$(basename "$lib")" 'index($NF, lib) { gsub(",", "", $1); s += $1 } END { print s + 0 }')
    packing=$(callgrind_annotate --inclusive=yes --threshold=100 cg.0.out |
      awk '/:(deflate|ZSTD_compressStream2) \[/ { gsub(",", "", $1); s += $1 } END { print s + 0 }')
    echo "$config (callgrind, rank 0): $total instructions; the library's own $own, compression $packing; $(sizes)"
  done
  exit 0
fi
for _ in $(seq "$runs"); do
  for config in $(shuf -e untraced traced compressed); do
    rm -rf trace
    # shellcheck disable=SC2046
    /usr/bin/time -o cpu.txt -f '%U %S' mpirun --oversubscribe -np 4 $(options $config) "$lu/xdlu" > /dev/null 2>&1
    echo "$config $(awk '{ print $1 + $2 }' cpu.txt) $(sizes)" >> "rounds.txt"
  done
done
for config in untraced traced compressed; do
  grep "^$config " rounds.txt | sort -k2,2n | head -1 |
    awk -v runs="$runs" '{ $1 = $1 ": least CPU of " runs ":"; $2 = $2 " s;"; print }'
done
