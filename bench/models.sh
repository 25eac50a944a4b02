#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Prints the model and speedup figures README.md and docs/icluster.md quote, from the shipped scenarios: pdgemm's FAST
# model against the simulation over the 119 grids of pdgemm-grids (mean and largest |diff|), pdtrsm's model per grid
# and the fastest grid per p (seed 003 §4.2), the ring multiply's speedup and efficiency at p = 3 (matmul100, seed 000
# Ex. 1.2: the paper measured 2.55 and 85%) and which computation rate or bandwidth would give the paper's speedup (copies
# of pentium2-fe-8.xml with another simrun:clock-hz or 8 times the bandwidth, in a temporary folder), the best
# broadcast per p on the T800 (bcast-t800's study summary), and pdtrsm's model on generated meshes, tori, fat trees and
# dragonflies (the points beyond 10%, and those where the model prints "-").
# Usage (from anywhere): bench/models.sh [path/to/simrun]   (default: build/simrun)
set -euo pipefail
cd "$(dirname "$0")/.."
simrun=${1:-build/simrun}
[ -x "$simrun" ] || { echo "bench/models.sh: $simrun not built; run scripts/setup first" >&2; exit 2; }

echo "== pdgemm-grids: FAST model (eqs. 1-3) against the simulation"
"$simrun" -q pdgemm-grids | grep 'mean |diff|'
echo "== pdtrsm: the model (eqs. 4-7 along the critical path, src/metrics/met_pdtrsm.c) per grid, and the fastest grid per p"
"$simrun" -q pdtrsm | grep -E '^ +[0-9]+ .*[0-9]+x[0-9]+ |mean \|diff\||^ +(1|4|8|16|32) +[0-9]+x[0-9]+ +'
echo "== matmul100: ring multiply, n = 100, on the Pentium II cluster (paper: speedup 2.55, efficiency 85% at p = 3)"
"$simrun" -q matmul100 | grep -E '^ +3 '
echo "== matmul100 at p = 3 on copies of the Pentium II cluster: the family's slowest and fastest clocks (233, 450 MHz),"
echo "   5.5 and 5 Mflop/s (clocks of 22.9 and 20.8 MHz at 4.1667 cycles per flop), 8 x bandwidth"
copies=$(mktemp -d)
trap 'rm -rf "$copies"' EXIT
for mhz in 233 450 22.9167 20.8333; do
  sed "s/\"simrun:clock-hz\" value=\"300e6\"/\"simrun:clock-hz\" value=\"${mhz}e6\"/" platforms/pentium2-fe-8.xml \
    >"$copies/clock-$mhz.xml"
done
sed 's/bandwidth="11866059.8Bps"/bandwidth="94928478.4Bps"/' platforms/pentium2-fe-8.xml >"$copies/bandwidth-x8.xml"
for copy in clock-233 clock-450 clock-22.9167 clock-20.8333 bandwidth-x8; do
  echo "$copy: $("$simrun" -q --no-cache matmul100 --set platform="$copies/$copy.xml" --set p=3 | grep -E '^ +3 ')"
done
echo "== bcast-t800: the best broadcast per p (Gauss-Jordan N = 256 on the T800)"
"$simrun" -q bcast-t800 | sed -n '/^Study summary/,/^$/p' | grep -E '^ +[0-9]+ '
echo "== pdtrsm on generated platforms (mesh 4x4, torus 4x4, fattree 2:3, dragonfly 2:2:2:2 with each preset; no T800"
echo "   dragonfly), M = N = 512, every grid of p = 2, 4, 8: the summary, then each point beyond 10% (platform, P, p, diff)"
echo "   and each point without a model (platform, P, p, -)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$copies"' EXIT
platforms=""
for kind in "mesh 4x4" "torus 4x4" "fattree 2:3" "dragonfly 2:2:2:2"; do
  for preset in t800 t800-flat icluster ncp2; do
    [ "$kind $preset" = "dragonfly 2:2:2:2 t800" ] && continue
    file="$tmp/${kind%% *}-$preset.xml"
    "$simrun" platform $kind --preset "$preset" -o "$file" >/dev/null
    platforms="$platforms $file"
  done
done
cat >"$tmp/pdtrsm.xml" <<XML
<?xml version="1.0"?>
<scenario name="pdtrsm-generated">
  <description>pdtrsm 512 on generated platforms</description>
  <platform file="$file"/>
  <program skeleton="pdtrsm"><param name="m" value="512"/><param name="n" value="512"/><param name="block" value="64"/>
    <param name="broadcast" value="neighbour"/></program>
  <sweep><param name="platform" values="${platforms# }"/><param name="grid-rows" values="1 2 4 8"/>
    <param name="p" values="2 4 8"/></sweep>
</scenario>
XML
"$simrun" -q --no-cache "$tmp/pdtrsm.xml" --csv "$tmp/pdtrsm.csv" | grep 'mean |diff|'
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  $col["model_diff"] == "" || $col["model_diff"] > 0.1 || $col["model_diff"] < -0.1 {
    n = split($col["platform"], path, "/")
    print "  " path[n], $col["grid_rows"], $col["p"], $col["model_diff"] == "" ? "-" : $col["model_diff"] }' \
  "$tmp/pdtrsm.csv"
