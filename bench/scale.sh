#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Prints CPU time, peak memory and simulated messages per second for Gauss-Jordan with the neighbour broadcast at
# 1024, 2048 and 4096 ranks on T800 meshes that the ranks fill (32 x 32, 32 x 64, 64 x 64; generated with --routing
# native, whose routes are arithmetic: src/sim/sim_grid.h), N = p: every rank holds
# one row, the least that keeps every rank busy (the skeleton refuses N < p). About p^2 messages: (p - 1) per step.
# The p = 1 run every point needs for T_seq is included. Beside simrun's figures, the same for SimGrid alone
# (bench/sg_floor.c: the same number of messages of the same size on the same mesh and mapping, with no simrun code
# and no computation, loading the platform as simrun does): the least a simulation with one SimGrid message per message
# costs. The last column says whether simrun met issue 20's target: 1024 ranks in at most 2 s; 4096 ranks in at most
# 60 s and 1 GiB, judged on CPU seconds (user + system; a simulation is one thread, so they are its wall time on an
# idle machine, and steadier than wall time on a shared one). A benchmark, not a test.
# Issue 31's target for the default network: simrun / SimGrid alone at most 1.10 (simrun's own cost under 10% of
# SimGrid's), printed beside the ratio.
# Usage: bench/scale.sh [path/to/simrun] [RANKS...]   (default: build/simrun 1024 2048 4096)
#        bench/scale.sh analytic [path/to/simrun]     (the analytic network at scale: see analytic() below)
# SCALE_ROUTING=explicit generates the meshes with every route listed (SimGrid's DijkstraCache), as before issue 20.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=simgrid
if [ "${1:-}" = analytic ]; then
  mode=analytic
  shift
fi
simrun=${1:-build/simrun}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1024 2048 4096)
[ -x "$simrun" ] || { echo "bench/scale.sh: $simrun not built; run scripts/setup first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

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

# A native mesh of rows x cols hosts with the t800-flat preset in $work/mesh.xml: `simrun platform` writes meshes
# of up to 4096 hosts, and a native mesh zone (src/sim/sim_grid.h) is one property, so larger ones widen a 64 x 64.
mesh() {
  if [ $(($1 * $2)) -le 4096 ]; then
    "$simrun" platform mesh "$1x$2" --preset t800-flat --routing "${SCALE_ROUTING:-native}" -o "$work/mesh.xml"
    return
  fi
  "$simrun" platform mesh 64x64 --preset t800-flat --routing native -o "$work/mesh64.xml"
  sed "s/64x64/$1x$2/g" "$work/mesh64.xml" > "$work/mesh.xml"
}

# Gauss-Jordan, neighbour broadcast, N = p, on $work/mesh.xml, with network $2, into $work/scenario.xml.
gj_scenario() {
  cat > "$work/scenario.xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<scenario name="scale-$1">
  <platform file="mesh.xml"/>
  <program skeleton="gauss-jordan"><param name="n" value="$1"/><param name="network" value="$2"/></program>
  <sweep>
    <param name="broadcast" values="neighbour"/>
    <param name="p" values="$1"/>
  </sweep>
</scenario>
XML
}

# The CSV column `messages` of the first point in $1.
messages_of() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "messages") col = i } NR == 2 { print $col }' "$1"
}

# The analytic network (docs/scale.md): Gauss-Jordan with the neighbour broadcast at SCALE_GJ_RANKS ranks (default
# 1024 4096, about 20 CPU s; issue 31's target is 65536 ranks in at most 60 s and 2 GiB, which takes hours) and the
# ping-ring of 1000 bytes at SCALE_RING_RANKS ranks (default 65536 262144, about 2.6 GiB at the larger; the target,
# 1048576 ranks, takes SimGrid's platform of a million hosts: see docs/scale.md). CPU seconds include the p = 1 run of
# each Gauss-Jordan point.
analytic() {
  printf '%-12s %8s %10s %12s %8s %10s %12s | %s\n' program ranks mesh messages "cpu (s)" "RSS (MiB)" messages/s target
  for p in ${SCALE_GJ_RANKS:-1024 4096}; do
    side=$(awk -v p="$p" 'BEGIN { r = int(sqrt(p)); while (p % r) r--; print r }')
    mesh "$side" $((p / side))
    gj_scenario "$p" analytic
    timed /dev/null "$simrun" -q --no-cache --csv "$work/out.csv" "$work/scenario.xml"
    report gauss-jordan "$p" "${side}x$((p / side))" "$(messages_of "$work/out.csv")" \
      "$(awk -v p="$p" -v c="$cpu" -v r="$rss" 'BEGIN { if (p != 65536) { printf "-"; exit }
         printf "<= 60 s, 2 GiB: %s", c <= 60 && r <= 2048 ? "met" : "missed" }')"
  done
  for p in ${SCALE_RING_RANKS:-65536 262144}; do
    side=$(awk -v p="$p" 'BEGIN { r = int(sqrt(p)); while (p % r) r--; print r }')
    mesh "$side" $((p / side))
    cat > "$work/scenario.xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<scenario name="ring-$p">
  <platform file="mesh.xml"/>
  <program skeleton="ping-ring"><param name="bytes" value="1000"/><param name="network" value="analytic"/></program>
  <sweep><param name="p" values="$p"/></sweep>
</scenario>
XML
    timed /dev/null "$simrun" -q --no-cache --csv "$work/out.csv" "$work/scenario.xml"
    report ping-ring "$p" "${side}x$((p / side))" "$(messages_of "$work/out.csv")" \
      "$([ "$p" = 1048576 ] && echo "1,048,576 ranks complete: met" || echo -)"
  done
}

# One line of analytic(): program, ranks, mesh, messages, target (with cpu and rss of the last timed run).
report() {
  awk -v g="$1" -v p="$2" -v m="$3" -v n="$4" -v c="$cpu" -v r="$rss" -v t="$5" \
    'BEGIN { printf "%-12s %8d %10s %12d %8.2f %10.1f %12.0f | %s\n", g, p, m, n, c, r, (c > 0 ? n / c : 0), t }'
}

if [ "$mode" = analytic ]; then
  analytic
  exit 0
fi

for unit in sim_grid sim_replay_comm; do
  c++ -std=c++17 -O2 -c "src/sim/$unit.cpp" -o "$work/$unit.o" $(pkg-config --cflags simgrid)
done
cc -O2 -Isrc/sim bench/sg_floor.c src/sim/sim_prop.c "$work/sim_grid.o" "$work/sim_replay_comm.o" \
  -o "$work/sg_floor" $(pkg-config --cflags --libs simgrid) -lstdc++ -lm

printf '%6s %8s | %-38s | %-38s | %-14s | %s\n' "" "" "simrun" "SimGrid alone" "simrun / alone" ""
printf '%6s %8s | %8s %8s %9s %10s | %8s %8s %9s %10s | %6s %7s | %s\n' ranks mesh "cpu (s)" "RSS (MiB)" \
  messages "messages/s" "cpu (s)" "RSS (MiB)" messages "messages/s" ratio target "target (simrun cpu, RSS)"
for p in "${sizes[@]}"; do
  case $p in
    1024) rows=32 cols=32 ;;
    2048) rows=32 cols=64 ;;
    4096) rows=64 cols=64 ;;
    *) echo "bench/scale.sh: $p ranks: use 1024, 2048 or 4096" >&2; exit 2 ;;
  esac
  mesh "$rows" "$cols"
  gj_scenario "$p" simgrid
  timed /dev/null "$simrun" -q --no-cache --csv "$work/out.csv" "$work/scenario.xml"
  sim_cpu=$cpu sim_rss=$rss
  messages=$(messages_of "$work/out.csv")
  timed "$work/floor.out" "$work/sg_floor" "$work/mesh.xml" "$rows" "$cols" --log=root.thres:critical \
    --cfg=contexts/stack-size:128
  awk -v p="$p" -v m="${rows}x${cols}" -v c="$sim_cpu" -v r="$sim_rss" -v n="$messages" -v fc="$cpu" -v fr="$rss" \
    -v fn="$(cat "$work/floor.out")" -v t="$(target "$p" "$sim_cpu" "$sim_rss")" \
    'BEGIN { ratio = fc > 0 ? c / fc : 0
             printf "%6d %8s | %8.2f %8.1f %9d %10.0f | %8.2f %8.1f %9d %10.0f | %6.2f %7s | %s\n", p, m, c, r, n,
             (c > 0 ? n / c : 0), fc, fr, fn, (fc > 0 ? fn / fc : 0), ratio, ratio <= 1.10 ? "met" : "missed", t }'
done
