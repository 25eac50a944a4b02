#!/usr/bin/env bash
# Prints wall time, peak memory and simulated messages per second for Gauss-Jordan with the neighbour broadcast at
# 1024, 2048 and 4096 ranks on T800 meshes that the ranks fill (32 x 32, 32 x 64, 64 x 64; generated with --routing
# native, whose routes are arithmetic: src/sim/sim_grid.h), N = p: every rank holds
# one row, the least that keeps every rank busy (the skeleton refuses N < p). About p^2 messages: (p - 1) per step.
# The p = 1 run every point needs for T_seq is included. Beside simrun's figures, the same for SimGrid alone
# (bench/sg_floor.c: the same number of messages of the same size on the same mesh and mapping, with no simrun code
# and no computation, loading the platform as simrun does): the least a simulation with one SimGrid message per message
# costs. The last column says whether simrun met issue 20's target: 1024 ranks in at most 2 s; 4096 ranks in at most
# 60 s and 1 GiB, judged on CPU seconds (user + system; a simulation is one thread, so they are its wall time on an
# idle machine, and steadier than wall time on a shared one). A benchmark, not a test.
# Usage: bench/scale.sh [path/to/simrun] [RANKS...]   (default: build/simrun 1024 2048 4096)
# SCALE_ROUTING=explicit generates the meshes with every route listed (SimGrid's DijkstraCache), as before issue 20.
set -euo pipefail
cd "$(dirname "$0")/.."
simrun=${1:-build/simrun}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1024 2048 4096)
[ -x "$simrun" ] || { echo "bench/scale.sh: $simrun not built; run scripts/setup first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for unit in sim_grid sim_replay_comm; do
  c++ -std=c++17 -O2 -c "src/sim/$unit.cpp" -o "$work/$unit.o" $(pkg-config --cflags simgrid)
done
cc -O2 -Isrc/sim bench/sg_floor.c "$work/sim_grid.o" "$work/sim_replay_comm.o" -o "$work/sg_floor" \
  $(pkg-config --cflags --libs simgrid) -lstdc++

# Runs the command after the first argument under /usr/bin/time, its output into $1, and sets wall, cpu (user + system
# seconds of the command and its children: steadier than wall time on a shared machine) and rss (MiB). A failing
# command stops the script (set -e).
timed() {
  local out=$1 user sys
  shift
  /usr/bin/time -f '%e %M %U %S' -o "$work/time" "$@" > "$out"
  read -r wall rss user sys < "$work/time"
  rss=$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
}

# The target of issue 20 for p ranks at `cpu` seconds and `rss` MiB: "-" where there is none.
target() {
  case $1 in
    1024) awk -v c="$2" 'BEGIN { printf "<= 2 s: %s", c <= 2 ? "met" : "missed" }' ;;
    4096) awk -v c="$2" -v r="$3" 'BEGIN { printf "<= 60 s, 1 GiB: %s", c <= 60 && r <= 1024 ? "met" : "missed" }' ;;
    *) printf -- - ;;
  esac
}

printf '%6s %8s | %-47s | %-47s |\n' "" "" "simrun" "SimGrid alone"
printf '%6s %8s | %8s %8s %8s %9s %10s | %8s %8s %8s %9s %10s | %s\n' ranks mesh "wall (s)" "cpu (s)" "RSS (MiB)" \
  messages "messages/s" "wall (s)" "cpu (s)" "RSS (MiB)" messages "messages/s" "target (simrun cpu, RSS)"
for p in "${sizes[@]}"; do
  case $p in
    1024) rows=32 cols=32 ;;
    2048) rows=32 cols=64 ;;
    4096) rows=64 cols=64 ;;
    *) echo "bench/scale.sh: $p ranks: use 1024, 2048 or 4096" >&2; exit 2 ;;
  esac
  "$simrun" platform mesh "${rows}x${cols}" --preset t800-flat --routing "${SCALE_ROUTING:-native}" \
    -o "$work/mesh.xml"
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
  sim_wall=$wall sim_cpu=$cpu sim_rss=$rss
  messages=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "messages") col = i } NR == 2 { print $col }' \
    "$work/out.csv")
  timed "$work/floor.out" "$work/sg_floor" "$work/mesh.xml" "$rows" "$cols" --log=root.thres:critical \
    --cfg=contexts/stack-size:128
  awk -v p="$p" -v m="${rows}x${cols}" -v w="$sim_wall" -v c="$sim_cpu" -v r="$sim_rss" -v n="$messages" -v fw="$wall" \
    -v fc="$cpu" -v fr="$rss" -v fn="$(cat "$work/floor.out")" -v t="$(target "$p" "$sim_cpu" "$sim_rss")" \
    'BEGIN { printf "%6d %8s | %8.2f %8.2f %8.1f %9d %10.0f | %8.2f %8.2f %8.1f %9d %10.0f | %s\n", p, m, w, c, r, n,
             (w > 0 ? n / w : 0), fw, fc, fr, fn, (fw > 0 ? fn / fw : 0), t }'
done
