#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# simrun analyse's memory on a long measured run (docs/tracer.md, "Analysing"): generates a timeline folder of about
# MB megabytes (4 ranks: pairs exchanging a blocking message, then an MPI_Allreduce of all, every 100 us) and prints
# the peak resident memory and CPU seconds of `simrun analyse` on it. The goal is at most 256 MiB for 2 GB of
# timelines: the reader keeps a few intervals per rank, not the run. With EXPORTS=1, the same with --otf2 and --paje
# (the run spilled to $TMPDIR, its archive written in passes over it and its Paje events sorted there: docs/analyse.md):
# the goal is the same bound.
# Usage: [EXPORTS=1] bench/analyse_memory.sh [MB]   (default 2048; needs build/simrun, about MB megabytes free in
# $TMPDIR, and with EXPORTS=1 about 12 times MB: the spill, the sort and both exports)
set -euo pipefail
cd "$(dirname "$0")/.."
mb=${1:-2048}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# 4 ranks x 3 lines of about 60 bytes per step
steps=$((mb * 1024 * 1024 / (4 * 3 * 60)))
for r in 0 1 2 3; do
  awk -v r="$r" -v steps="$steps" 'BEGIN {
    printf "# simrun measured timeline 1\n# rank %d of 4\n# program generated\n", r
    peer = (r % 2) ? r - 1 : r + 1
    for (k = 0; k < steps; k++) {
      t = k * 1e-4
      if (r % 2 == 0) {
        printf "%.9f %.9f compute main -1 0 -\n", t, t + 5e-5
        printf "%.9f %.9f comm main %d 1024 MPI_Send\n", t + 5e-5, t + 9e-5, peer
      } else {
        printf "%.9f %.9f compute main -1 0 -\n", t, t + 4e-5
        printf "%.9f %.9f idle main %d 1024 MPI_Recv\n", t + 4e-5, t + 9e-5, peer
      }
      printf "%.9f %.9f comm main -1 8 MPI_Allreduce\n", t + 9e-5 + r * 1e-6, t + 1e-4
    }
    printf "# end %.9f\n", steps * 1e-4
  }' > "$work/timeline-$r.txt"
done
size=$(du -sm "$work" | cut -f1)
/usr/bin/time -f '%M %U %S' -o "$work/time" build/simrun analyse "$work" > "$work/out"
read -r kb user sys < "$work/time"
printf 'simrun analyse on %d MB of timelines (4 ranks, %d steps): peak RSS %.1f MiB, CPU %.1f s (user %.1f, sys %.1f)\n' \
  "$size" "$steps" "$(echo "$kb / 1024" | bc -l)" "$(echo "$user + $sys" | bc -l)" "$user" "$sys"
grep -E '^  .*paired' "$work/out" | sed 's/^ */  /'
[ "${EXPORTS:-0}" = 1 ] || exit 0
/usr/bin/time -f '%M %U %S' -o "$work/time" build/simrun analyse "$work" --otf2 "$work/otf2" --paje "$work/t.paje" \
  > "$work/out"
read -r kb user sys < "$work/time"
printf 'with --otf2 and --paje: peak RSS %.1f MiB, CPU %.1f s; OTF2 archive %d MB, Paje trace %d MB\n' \
  "$(echo "$kb / 1024" | bc -l)" "$(echo "$user + $sys" | bc -l)" "$(du -sm "$work/otf2" | cut -f1)" \
  "$(du -sm "$work/t.paje" | cut -f1)"
