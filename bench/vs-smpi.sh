#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Replays the same time-independent traces with smpirun -replay and with simrun's ti-replay skeleton, on equal
# semantics, and prints both wall and CPU times, their ratio, both simulated times and their difference.
# 1. Gauss-Jordan N = 512, p = 128, each broadcast, written by simrun --ti, with simrun's own semantics on both sides:
#    Platform: platforms/t800-mesh-128.xml without its simrun:comm-*, simrun:c004-* and simrun:link-bit-rate
#      properties, so that neither simulator adds the T800's T(l, d) or its C004 stages: both use SimGrid's CM02
#      model over the mesh's links (simrun: network = platform, the file's own
#      network/model; smpirun would otherwise impose its SMPI model, so it is given --cfg=network/model:CM02).
#    Semantics: every send synchronous (simrun: sends = synchronous; smpirun: --cfg=smpi/send-is-detached-thresh:0).
#    Mapping: rank i on the host simrun gave it (the trace's hostfile.txt, for smpirun -hostfile and simrun's hostfile).
# 2. A collective-heavy program (bench/coll-heavy.c: 20 steps of allreduce, alltoall, bcast, allgather, reduce and
#    barrier), compiled with smpicc and traced by smpirun -trace-ti at 64 and 128 ranks on tests/data/ti/cluster.xml,
#    replayed with both simulators' defaults (simrun's are smpirun's: docs/ti-replay.md).
# Usage: bench/vs-smpi.sh [path/to/simrun]   (default: build/simrun; VS_SMPI_RANKS="64" for the 64-rank row alone)
set -euo pipefail
cd "$(dirname "$0")/.."
simrun=${1:-build/simrun}
[ -x "$simrun" ] || { echo "bench/vs-smpi.sh: $simrun not built; run scripts/setup first" >&2; exit 2; }
command -v smpirun > /dev/null || { echo "bench/vs-smpi.sh: smpirun not found (Debian: libsimgrid-dev)" >&2; exit 2; }
command -v smpicc > /dev/null || { echo "bench/vs-smpi.sh: smpicc not found (Debian: libsimgrid-dev)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# compare NAME PLATFORM NP TRACE HOSTFILE "SIMRUN PARAMS" "SMPIRUN OPTIONS": one row
compare() {
  local name=$1 platform=$2 np=$3 trace=$4 hosts=$5 params=$6 options=$7
  cat > "$work/replay.xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<scenario name="vs-smpi">
  <platform file="$platform"/>
  <program skeleton="ti-replay"><param name="trace" value="$trace"/><param name="hostfile" value="$hosts"/>$params</program>
  <sweep><param name="p" values="$np"/></sweep>
</scenario>
XML
  /usr/bin/time -f '%e %U %S' -o "$work/simrun.time" "$simrun" -q --no-cache "$work/replay.xml" > "$work/simrun.out"
  t_simrun=$(sed -n 's/.*T_par = \([0-9.e+-]*\) s.*/\1/p' "$work/simrun.out" | head -1)
  # shellcheck disable=SC2086
  (cd "$(dirname "$trace")" && /usr/bin/time -f '%e %U %S' -o "$work/smpi.time" smpirun -np "$np" -platform "$platform" \
    -hostfile "$hosts" -replay "$trace" $options --log=root.thres:critical --log=smpi_replay.thres:info \
    > "$work/smpi.log" 2>&1) # smpirun opens the trace's relative paths from its current folder
  t_smpi=$(sed -n 's/.*Simulation time \([0-9.e+-]*\).*/\1/p' "$work/smpi.log" | tail -1)
  row "$name" "$(cat "$work/simrun.time")" "$(cat "$work/smpi.time")" "$t_simrun" "$t_smpi"
}

# row NAME "SIMRUN_WALL USER SYS" "SMPIRUN_WALL USER SYS" SIMRUN_T SMPIRUN_T: prints one row of the table, with its
# target (issue 20: CPU ratio >= 3, |simulated time difference| <= 1%) met or missed. Every row goes through it.
row() {
  awk -v b="$1" -v s="$2" -v m="$3" -v ts="$4" -v tm="$5" 'BEGIN {
    split(s, a, " "); split(m, c, " "); cs = a[2] + a[3]; cm = c[2] + c[3]
    ratio = cs > 0 ? cm / cs : 0; diff = tm != 0 ? 100 * (ts - tm) / tm : 0
    printf "%-22s %8.2f %8.2f %8.2f %8.2f %7.2f %14.6f %14.6f %7.2f%% | %s\n", b, a[1], cs, c[1], cm, ratio, ts, tm,
           diff, (ratio >= 3 && diff <= 1 && diff >= -1 ? "met" : "missed") }'
}

printf '%-22s %17s %17s %7s %14s %14s %8s | %s\n' "" "simrun" "smpirun" "" "" "" "" ""
printf '%-22s %8s %8s %8s %8s %7s %14s %14s %8s | %s\n' trace "wall (s)" "cpu (s)" "wall (s)" "cpu (s)" ratio \
  "simrun T (s)" "smpirun T (s)" diff "target (ratio >= 3, |diff| <= 1%)"
grep -v -e 'id="simrun:comm-' -e 'id="simrun:c004-' -e 'id="simrun:link-bit-rate"' platforms/t800-mesh-128.xml > "$work/plain.xml"
for bcast in one-to-all neighbour; do
  sed -e "s/values=\"one-to-all neighbour\"/values=\"$bcast\"/" -e "s#\.\./platforms#$PWD/platforms#" \
    bench/gj512-p128.xml > "$work/gj.xml"
  rm -rf "$work/ti"
  "$simrun" -q --no-cache --per-process 128 --ti "$work/ti" "$work/gj.xml" > /dev/null
  compare "gj512 $bcast" "$work/plain.xml" 128 "$work/ti/point-0/index.txt" "$work/ti/point-0/hostfile.txt" \
    '<param name="network" value="platform"/><param name="sends" value="synchronous"/>' \
    "--cfg=network/model:CM02 --cfg=smpi/send-is-detached-thresh:0"
done
smpicc -o "$work/coll-heavy" bench/coll-heavy.c 2> /dev/null
cluster=$PWD/tests/data/ti/cluster.xml
for np in ${VS_SMPI_RANKS:-64 128}; do
  seq 0 $((np - 1)) | sed 's/^/node-/' > "$work/hosts"
  (cd "$work" && smpirun -np "$np" -platform "$cluster" -hostfile hosts -trace-ti --cfg=tracing/filename:coll.ti \
    --cfg=smpi/host-speed:1Gf --log=root.thres:critical ./coll-heavy > /dev/null 2>&1)
  compare "coll-heavy p=$np" "$cluster" "$np" "$work/coll.ti" "$work/hosts" "" ""
  rm -rf "$work/coll.ti" "$work/coll.ti_files"
done
