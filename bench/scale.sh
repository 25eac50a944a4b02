#!/usr/bin/env bash
# Prints wall time, peak memory and simulated messages per second for Gauss-Jordan with the neighbour broadcast at
# 1024, 2048 and 4096 ranks on T800 meshes that the ranks fill (32 x 32, 32 x 64, 64 x 64), N = p: every rank holds
# one row, the least that keeps every rank busy (the skeleton refuses N < p). About p^2 messages: (p - 1) per step.
# The p = 1 run every point needs for T_seq is included. A benchmark, not a test: just the figures.
# Usage: bench/scale.sh [path/to/simrun] [RANKS...]   (default: build/simrun 1024 2048 4096)
set -euo pipefail
cd "$(dirname "$0")/.."
simrun=${1:-build/simrun}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1024 2048 4096)
[ -x "$simrun" ] || { echo "bench/scale.sh: $simrun not built; run scripts/setup first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%6s %6s %8s %10s %14s %10s %12s\n' ranks N mesh "wall (s)" "peak RSS (MiB)" messages "messages/s"
for p in "${sizes[@]}"; do
  case $p in
    1024) mesh=32x32 ;;
    2048) mesh=32x64 ;;
    4096) mesh=64x64 ;;
    *) echo "bench/scale.sh: $p ranks: use 1024, 2048 or 4096" >&2; exit 2 ;;
  esac
  "$simrun" platform mesh "$mesh" --preset t800 -o "$work/mesh.xml"
  cat > "$work/scenario.xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<scenario name="scale-$p">
  <platform file="mesh.xml"/>
  <program skeleton="gauss-jordan"><param name="n" value="$p"/></program>
  <sweep>
    <param name="broadcast" values="neighbour"/>
    <param name="p" values="$p"/>
  </sweep>
</scenario>
XML
  /usr/bin/time -f '%e %M' -o "$work/time" "$simrun" -q --no-cache --csv "$work/out.csv" "$work/scenario.xml" \
    > /dev/null
  read -r wall rss_kib < "$work/time"
  messages=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "messages") col = i } NR == 2 { print $col }' \
    "$work/out.csv")
  awk -v p="$p" -v m="$mesh" -v w="$wall" -v r="$rss_kib" -v n="$messages" \
    'BEGIN { printf "%6d %6d %8s %10.2f %14.1f %10d %12.0f\n", p, p, m, w, r / 1024, n, (w > 0 ? n / w : 0) }'
done
