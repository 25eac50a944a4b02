#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Prints wall time, peak memory and simulated messages per second for Gauss-Jordan N = 512 at p = 128, each
# broadcast on its own (plus the p = 1 run every point needs for T_seq). A benchmark, not a test: just the figures.
# Usage: bench/run.sh [path/to/simrun]   (default: build/simrun)
set -euo pipefail
cd "$(dirname "$0")/.."
simrun=${1:-build/simrun}
[ -x "$simrun" ] || { echo "bench/run.sh: $simrun not built; run scripts/setup first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-12s %10s %14s %10s %14s\n' broadcast "wall (s)" "peak RSS (MiB)" messages "messages/s"
for bcast in one-to-all neighbour; do
  sed "s/values=\"one-to-all neighbour\"/values=\"$bcast\"/" bench/gj512-p128.xml > "$work/scenario.xml"
  sed -i "s#\.\./platforms#$PWD/platforms#" "$work/scenario.xml"
  /usr/bin/time -f '%e %M' -o "$work/time" "$simrun" -q --no-cache --csv "$work/out.csv" "$work/scenario.xml" \
    > /dev/null
  read -r wall rss_kib < "$work/time"
  messages=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "messages") col = i } NR == 2 { print $col }' \
    "$work/out.csv")
  awk -v b="$bcast" -v w="$wall" -v r="$rss_kib" -v m="$messages" \
    'BEGIN { printf "%-12s %10.2f %14.1f %10d %14.0f\n", b, w, r / 1024, m, (w > 0 ? m / w : 0) }'
done
