#!/usr/bin/env bash
# The tracer's overhead (docs/tracer.md): the ring matrix multiply of examples/ring-matmul at p = 4, run untraced and
# under libsimrun-trace.so, alternately, RUNS times each. Prints the minimum and the median of the program's own time
# (MPI_Wtime from after MPI_Init to before MPI_Finalize, as ring_matmul prints it) and of mpirun's wall time, and the
# overheads in %. The goal is under 5% (issue 16). Ranks beyond the machine's cores share them (--oversubscribe), so
# other load on the machine shows as noise in the medians; the minima are the least disturbed runs.
# Usage: bench/tracer.sh [N [RUNS]]   (default N = 600, RUNS = 7; needs build/libsimrun-trace.so and Open MPI)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-600}
runs=${2:-7}
lib=$PWD/build/libsimrun-trace.so
[ -f "$lib" ] || { echo "bench/tracer.sh: $lib not built; build simrun with Open MPI installed" >&2; exit 2; }
if ! command -v mpicc > /dev/null || ! command -v mpirun > /dev/null; then
  echo "bench/tracer.sh: mpicc or mpirun not found (Debian: libopenmpi-dev, openmpi-bin)" >&2
  exit 2
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc -O2 -I src/tracer examples/ring-matmul/ring_matmul.c -o "$work/ring_matmul"
# One run: "<program seconds> <wall seconds>".
run() {
  local start end out
  start=$(date +%s.%N)
  out=$(mpirun --oversubscribe -np 4 "$@" "$work/ring_matmul" "$n" 2> /dev/null)
  end=$(date +%s.%N)
  echo "$out" | awk -v s="$start" -v e="$end" '/ring_matmul:/ { print $(NF - 3), e - s }'
}
: > "$work/plain"
: > "$work/traced"
for i in $(seq "$runs"); do
  run >> "$work/plain"
  run -x LD_PRELOAD="$lib" -x SIMRUN_TRACE_DIR="$work/trace" >> "$work/traced"
done
# stat FILE FIELD: "<minimum> <median>" of that field over the runs.
stat() {
  cut -d' ' -f"$2" "$1" | sort -g |
    awk '{ v[NR] = $1 } END { print v[1], (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
printf 'ring_matmul n = %d, p = 4, %d runs each\n' "$n" "$runs"
printf '%-10s %12s %12s %12s %12s\n' "" "program min" "median (s)" "mpirun min" "median (s)"
for kind in untraced traced; do
  file=$work/plain
  [ $kind = traced ] && file=$work/traced
  printf '%-10s %12.4f %12.4f %12.4f %12.4f\n' $kind $(stat "$file" 1) $(stat "$file" 2)
done
paste <(stat "$work/plain" 1; stat "$work/plain" 2) <(stat "$work/traced" 1; stat "$work/traced" 2) | tr '\n' ' ' |
  awk '{ printf "%-10s %11.1f%% %11.1f%% %11.1f%% %11.1f%%\n", "overhead", 100 * ($3 - $1) / $1, 100 * ($4 - $2) / $2,
         100 * ($7 - $5) / $5, 100 * ($8 - $6) / $6 }'
lines=$(cat "$work"/trace/rank-*.txt | wc -l)
printf 'trace: %s TI lines in %d rank files\n' "$lines" "$(ls "$work"/trace/rank-*.txt | wc -l)"

# simrun analyse on a long run: peak memory (bench/analyse_memory.sh; docs/tracer.md, "One pass, bounded memory")
bench/analyse_memory.sh "${SIMRUN_ANALYSE_MB:-512}"
