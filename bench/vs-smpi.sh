#!/usr/bin/env bash
# Replays the same time-independent trace (Gauss-Jordan N = 512, p = 128, each broadcast, written by simrun --ti) with
# smpirun -replay and with simrun's ti-replay skeleton, on the same platform under the same network model and send
# semantics, and prints both wall times, their ratio, both simulated times and their difference.
#   Platform: platforms/t800-mesh-128.xml without its simrun:comm-* properties, so that neither simulator adds the
#     T800's T(l, d): both use SimGrid's CM02 model over the mesh's links (the file's own network/model; smpirun
#     would otherwise impose its SMPI model, so it is given --cfg=network/model:CM02).
#   Semantics: every send synchronous, as simrun's always are (smpirun: --cfg=smpi/send-is-detached-thresh:0; by
#     default SMPI sends messages below 64 KiB eagerly).
#   Mapping: rank i on the host simrun gave it (the trace's hostfile.txt, for smpirun -hostfile).
# Usage: bench/vs-smpi.sh [path/to/simrun]   (default: build/simrun)
set -euo pipefail
cd "$(dirname "$0")/.."
simrun=${1:-build/simrun}
[ -x "$simrun" ] || { echo "bench/vs-smpi.sh: $simrun not built; run scripts/setup first" >&2; exit 2; }
command -v smpirun > /dev/null || { echo "bench/vs-smpi.sh: smpirun not found (Debian: simgrid)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
grep -v 'id="simrun:comm-' platforms/t800-mesh-128.xml > "$work/plain.xml"
printf '%-12s %10s %10s %7s %14s %14s %8s\n' broadcast "simrun (s)" "smpirun (s)" ratio "simrun T (s)" "smpirun T (s)" diff
for bcast in one-to-all neighbour; do
  sed -e "s/values=\"one-to-all neighbour\"/values=\"$bcast\"/" -e "s#\.\./platforms#$PWD/platforms#" \
    bench/gj512-p128.xml > "$work/gj.xml"
  rm -rf "$work/ti"
  "$simrun" -q --no-cache --per-process 128 --ti "$work/ti" "$work/gj.xml" > /dev/null
  trace=$work/ti/point-0
  cat > "$work/replay.xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<scenario name="vs-smpi">
  <platform file="$work/plain.xml"/>
  <program skeleton="ti-replay"><param name="trace" value="$trace/index.txt"/></program>
  <sweep><param name="broadcast" values="$bcast"/><param name="p" values="128"/></sweep>
</scenario>
XML
  /usr/bin/time -f '%e' -o "$work/simrun.time" "$simrun" -q --no-cache "$work/replay.xml" > "$work/simrun.out"
  t_simrun=$(sed -n 's/.*T_par = \([0-9.e+-]*\) s.*/\1/p' "$work/simrun.out" | head -1)
  /usr/bin/time -f '%e' -o "$work/smpi.time" smpirun -np 128 -platform "$work/plain.xml" \
    -hostfile "$trace/hostfile.txt" -replay "$trace/index.txt" --cfg=network/model:CM02 --cfg=smpi/send-is-detached-thresh:0 \
    --log=root.thres:critical --log=smpi_replay.thres:info > "$work/smpi.log" 2>&1
  t_smpi=$(sed -n 's/.*Simulation time \([0-9.e+-]*\).*/\1/p' "$work/smpi.log" | tail -1)
  awk -v b="$bcast" -v ws="$(cat "$work/simrun.time")" -v wm="$(cat "$work/smpi.time")" -v ts="$t_simrun" \
    -v tm="$t_smpi" 'BEGIN { printf "%-12s %10.2f %10.2f %7.2f %14.6f %14.6f %7.2f%%\n", b, ws, wm,
                             (ws > 0 ? wm / ws : 0), ts, tm, 100 * (tm - ts) / ts }'
done
