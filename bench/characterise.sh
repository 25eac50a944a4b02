#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# simrun characterise on a large ping-pong CSV (docs/hostile-input.md, issue 32 item 2): LINES samples (default
# 1000000) of 8 sizes from 8 B to 128 KiB (powers of 4) at 1 to 5 hops, made by awk from eq. 4 with known
# coefficients (alpha 10 us, beta 0.1 us/B, gamma 2 us/hop, delta 0.001 us/B/hop) plus up to 1 us of noise (so alpha
# comes out near 10.5). Prints the CPU seconds (user + sys, not wall time: the machine may be shared) and the peak
# memory; the goal is under 5 s for a million lines.
# Usage: bench/characterise.sh [LINES]   (needs build/simrun)
set -euo pipefail
cd "$(dirname "$0")/.."
lines=${1:-1000000}
[ -x build/simrun ] || { echo "bench/characterise.sh: build/simrun not built" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
awk -v n="$lines" 'BEGIN {
  srand(1); print "bytes,hops,time_us"
  for (i = 0; i < n; i++) {
    b = 2 ^ (3 + 2 * (i % 8)); h = 1 + i % 5
    printf "%d,%d,%.3f\n", b, h, 10 + 0.1 * b + 2 * h + 0.001 * b * h + rand()
  }
}' > "$work/pingpong.csv"
/usr/bin/time -f '%U %S %M' -o "$work/time" build/simrun characterise "$work/pingpong.csv" > "$work/out"
read -r user sys kib < "$work/time"
echo "simrun characterise, $lines lines: $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') CPU seconds" \
  "(user $user, sys $sys), peak $((kib / 1024)) MiB"
sed -n '1,4p' "$work/out"
