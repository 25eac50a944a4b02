#!/usr/bin/env bash
# Prints wall time, peak memory and simulated messages per second for Gauss-Jordan with the neighbour broadcast at
# 1024, 2048 and 4096 ranks on T800 meshes that the ranks fill (32 x 32, 32 x 64, 64 x 64), N = p: every rank holds
# one row, the least that keeps every rank busy (the skeleton refuses N < p). About p^2 messages: (p - 1) per step.
# The p = 1 run every point needs for T_seq is included. Beside simrun's figures, the same for SimGrid alone
# (bench/sg_floor.c: the same number of messages of the same size on the same mesh and mapping, with no simrun code
# and no computation): the least a simulation with one SimGrid message per message costs. A benchmark, not a test.
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
cc -O2 bench/sg_floor.c -o "$work/sg_floor" $(pkg-config --cflags --libs simgrid)

# Runs the command after the first argument under /usr/bin/time, its output into $1, and sets wall and rss (MiB). A
# failing command stops the script (set -e).
timed() {
  local out=$1
  shift
  /usr/bin/time -f '%e %M' -o "$work/time" "$@" > "$out"
  read -r wall rss < "$work/time"
  rss=$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')
}

printf '%6s %8s | %-38s | %-38s\n' "" "" "simrun" "SimGrid alone"
printf '%6s %8s | %8s %8s %9s %10s | %8s %8s %9s %10s\n' ranks mesh "wall (s)" "RSS (MiB)" messages "messages/s" \
  "wall (s)" "RSS (MiB)" messages "messages/s"
for p in "${sizes[@]}"; do
  case $p in
    1024) rows=32 cols=32 ;;
    2048) rows=32 cols=64 ;;
    4096) rows=64 cols=64 ;;
    *) echo "bench/scale.sh: $p ranks: use 1024, 2048 or 4096" >&2; exit 2 ;;
  esac
  "$simrun" platform mesh "${rows}x${cols}" --preset t800 -o "$work/mesh.xml"
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
  timed /dev/null "$simrun" -q --no-cache --csv "$work/out.csv" "$work/scenario.xml"
  sim_wall=$wall sim_rss=$rss
  messages=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "messages") col = i } NR == 2 { print $col }' \
    "$work/out.csv")
  timed "$work/floor.out" "$work/sg_floor" "$work/mesh.xml" "$rows" "$cols" --log=root.thres:critical \
    --cfg=contexts/stack-size:128
  awk -v p="$p" -v m="${rows}x${cols}" -v w="$sim_wall" -v r="$sim_rss" -v n="$messages" -v fw="$wall" -v fr="$rss" \
    -v fn="$(cat "$work/floor.out")" \
    'BEGIN { printf "%6d %8s | %8.2f %8.1f %9d %10.0f | %8.2f %8.1f %9d %10.0f\n", p, m, w, r, n, (w > 0 ? n / w : 0),
             fw, fr, fn, (fw > 0 ? fn / fw : 0) }'
done
