#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# simrun analyse on 2-rank timelines whose message ends stay unpaired (docs/tracer.md, "Analysing"), for each N:
# - tags: rank 0 sends N messages with tags 0 .. N-1, rank 1 receives N with tags N .. 2N-1 (every receive unpaired,
#   every send queued): a matching that scanned the queued sends at each receive grew with N^2 (27 s at N = 100,000
#   before met_tally.c);
# - isends: rank 0 posts N MPI_Isend that no wait completes, rank 1 receives them: a rank that gave its oldest
#   outstanding operation up at each posting moved 4,096 of them each time (2.3 s at N = 200,000 before);
# and the CPU seconds and peak memory of `simrun analyse`. The goal is time linear in N.
# Usage: bench/unpaired.sh [N...]   (default 25000 50000 100000 200000; needs build/simrun)
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sizes=("$@")
[ $# -gt 0 ] || sizes=(25000 50000 100000 200000)
for kind in tags isends; do
  for n in "${sizes[@]}"; do
    for r in 0 1; do
      awk -v r="$r" -v n="$n" -v kind="$kind" 'BEGIN {
        printf "# simrun measured timeline 1\n# rank %d of 2\n# start end category phase peer bytes call tag comm\n", r
        for (i = 0; i < n; i++) {
          call = r ? "MPI_Recv" : kind == "tags" ? "MPI_Send" : "MPI_Isend"
          tag = kind == "isends" ? 0 : r ? n + i : i
          printf "%.9f %.9f %s main %d 8 %s %d 0\n", i * 1e-5 + r * 3e-6, i * 1e-5 + 5e-6, r ? "idle" : "comm", 1 - r,
            call, tag
        }
        printf "# end %.9f\n", n * 1e-5
      }' > "$work/timeline-$r.txt"
    done
    /usr/bin/time -f '%M %U %S' -o "$work/time" build/simrun analyse "$work" --seq-time 1 > "$work/out"
    read -r kb user sys < "$work/time"
    printf '%s, N = %d: %s MB of timelines, CPU %.2f s, peak RSS %.1f MiB; %s\n' "$kind" "$n" \
      "$(du -sm "$work" | cut -f1)" "$(echo "$user + $sys" | bc -l)" "$(echo "$kb / 1024" | bc -l)" \
      "$(grep -o '[0-9]* messages paired, [0-9]* receives unpaired' "$work/out")"
  done
done
