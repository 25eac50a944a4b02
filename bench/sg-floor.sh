#!/usr/bin/env bash
# What SimGrid alone costs for bench/scale.sh's messages: bench/sg_floor.c (no simrun code, no computation) relays
# p - 1 messages of 8 p bytes per step for p steps on the same generated T800 mesh (about p^2 messages, as simrun's
# Gauss-Jordan with the neighbour broadcast), and this prints its wall time, peak memory and messages per second: the
# least a simulation with one SimGrid message per message costs here. A benchmark, not a test.
# Usage: bench/sg-floor.sh [path/to/simrun] [RANKS...]   (default: build/simrun 1024 2048 4096; simrun only writes
# the platforms)
set -euo pipefail
cd "$(dirname "$0")/.."
simrun=${1:-build/simrun}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1024 2048 4096)
[ -x "$simrun" ] || { echo "bench/sg-floor.sh: $simrun not built; run scripts/setup first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 bench/sg_floor.c -o "$work/sg_floor" $(pkg-config --cflags --libs simgrid)
printf '%6s %8s %10s %14s %10s %12s\n' ranks mesh "wall (s)" "peak RSS (MiB)" messages "messages/s"
for p in "${sizes[@]}"; do
  case $p in
    1024) rows=32; cols=32 ;;
    2048) rows=32; cols=64 ;;
    4096) rows=64; cols=64 ;;
    *) echo "bench/sg-floor.sh: $p ranks: use 1024, 2048 or 4096" >&2; exit 2 ;;
  esac
  "$simrun" platform mesh "${rows}x${cols}" --preset t800 -o "$work/mesh.xml"
  /usr/bin/time -f '%e %M' -o "$work/time" "$work/sg_floor" "$work/mesh.xml" "$rows" "$cols" \
    --log=root.thres:critical --cfg=contexts/stack-size:128 > "$work/out"
  read -r wall rss_kib < "$work/time"
  messages=$(cat "$work/out")
  awk -v p="$p" -v m="${rows}x${cols}" -v w="$wall" -v r="$rss_kib" -v n="$messages" \
    'BEGIN { printf "%6d %8s %10.2f %14.1f %10d %12.0f\n", p, m, w, r / 1024, n, (w > 0 ? n / w : 0) }'
done
