#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Prints the simulated times docs/ti-replay.md quotes: each of the project's traces replayed by simrun's ti-replay
# skeleton (its default, SMPI's semantics) and by `smpirun -replay`, as tests/test_app_ti.c replays them. One line per
# trace: NAME RANKS SMPIRUN_S SIMRUN_S, both to smpirun's 6 printed decimals (simrun's rounded from its CSV's 9
# digits). A few seconds in all; tests/check_docs.py runs it.
# Usage (from anywhere): bench/ti-times.sh [path/to/simrun]   (default: build/simrun; smpirun must be installed)
set -euo pipefail
cd "$(dirname "$0")/.."
simrun=$(realpath "${1:-build/simrun}")
[ -x "$simrun" ] || { echo "bench/ti-times.sh: $simrun not built; run scripts/setup first" >&2; exit 2; }
command -v smpirun >/dev/null || { echo "bench/ti-times.sh: smpirun not installed (scripts/install-deps)" >&2; exit 2; }
data=$(realpath tests/data/ti)
work=$(mktemp -d "${TMPDIR:-/tmp}/ti-times-XXXXXX")
trap 'rm -rf "$work"' EXIT

# replay NAME RANKS TRACE HOSTFILE [INDEX]: TRACE for simrun, INDEX (default: a one-line index naming TRACE) for smpirun,
# both on tests/data/ti/five-hosts.xml.
replay() {
  local name=$1 ranks=$2 trace=$3 hosts=$4 index=${5:-}
  if [ -z "$index" ]; then
    index=$work/$name.index
    echo "$trace" >"$index"
  fi
  cat >"$work/$name.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<scenario name="$name">
  <platform file="$data/five-hosts.xml"/>
  <program skeleton="ti-replay">
    <param name="trace" value="$trace"/>
    <param name="hostfile" value="$hosts"/>
  </program>
  <sweep><param name="p" values="$ranks"/></sweep>
</scenario>
EOF
  "$simrun" -q "$work/$name.xml" --csv "$work/$name.csv" >/dev/null
  local ours smpi
  ours=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "t_par_s") c = i } NR == 2 { printf "%.6f", $c }' \
    "$work/$name.csv")
  smpi=$(cd "$(dirname "$index")" && smpirun -np "$ranks" -platform "$data/five-hosts.xml" -hostfile "$hosts" \
    -replay "$index" --log=root.thres:critical --log=smpi_replay.thres:info 2>&1 |
    sed -n 's/.*Simulation time \([0-9.e+-]*\).*/\1/p')
  echo "$name $ranks $smpi $ours"
}

for kind in allgatherv:4 allreduce:3 alltoall:3 alltoallv:3 barrier:3 bcast:3 bcast-datatypes:3 gather:4 \
  reducescatter:4 waitall:3 isend:3; do
  replay "${kind%:*}" "${kind#*:}" "$data/kinds/${kind%:*}.txt" "$data/five-hosts"
done
replay pair 2 "$data/kinds/pair.index" "$data/five-hosts" "$data/kinds/pair.index"
for test in eager:2 rendezvous:2 posted-before-barrier:2; do
  replay "${test%:*}" "${test#*:}" "$data/tests/${test%:*}.txt" "$data/five-hosts"
done
replay eight 8 "$data/tests/eight.txt" "$data/tests/one-host"
