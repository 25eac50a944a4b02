#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The cost of pictures and timelines (issue 45 item 5), beside its targets: the 80-point what-if of
# bench/whatif-gj1024.xml (per-process timelines at p = 64) run with --html, its peak memory (the whole process tree:
# simrun and its simulating children, their resident sizes summed every 0.1 s; and /usr/bin/time -v's largest single
# process), the cache it leaves and its largest entry, and the page's size; then gj256 at p = 128 with its timelines,
# the page's size. A benchmark, not a test: just the figures (about 10 minutes on 2 busy cores).
# Usage: bench/pictures.sh [path/to/simrun] [JOBS]   (default: build/simrun, 2)
set -euo pipefail
cd "$(dirname "$0")/.."
simrun=$(realpath "${1:-build/simrun}")
jobs=${2:-2}
[ -x "$simrun" ] || { echo "bench/pictures.sh: $simrun not built; run scripts/setup first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/whatif"
for spec in "mesh 8x8 mesh-8x8" "torus 8x8 torus-8x8" "hypercube 6 hypercube-6" "fattree 4:3 fattree-4-3" \
  "switch 64 switch-64"; do
  read -r kind size name <<< "$spec"
  "$simrun" platform "$kind" "$size" --preset t800 -o "$work/whatif/t800-$name.xml"
done
cp bench/whatif-gj1024.xml "$work/"
mib() { awk -v b="$1" 'BEGIN { if (b < 1048576) printf "%.1f KiB", b / 1024; else printf "%.1f MiB", b / 1048576 }'; }
# row WHAT MEASURED_BYTES TARGET_BYTES
row() { printf '%-44s %14s  target < %-10s %s\n' "$1" "$(mib "$2")" "$(mib "$3")" "$([ "$2" -lt "$3" ] && echo met || echo MISSED)"; }
# The run in a session of its own (setsid), whose processes' resident sizes are summed every 0.1 s until it ends: the
# tree's peak, in bytes, into $work/tree.
SIMRUN_CACHE_DIR="$work/cache" setsid /usr/bin/time -v -o "$work/time" "$simrun" -q -j "$jobs" \
  "$work/whatif-gj1024.xml" --html "$work/whatif.html" > /dev/null &
session=$!
tree=0
while kill -0 "$session" 2> /dev/null; do
  now=$(ps -o rss= -s "$session" | awk '{ s += $1 } END { print s * 1024 }')
  [ "${now:-0}" -gt "$tree" ] && tree=$now
  sleep 0.1
done
wait "$session"
largest=$(($(awk -F': ' '/Maximum resident/ { print $2 }' "$work/time") * 1024))
wall=$(awk -F': ' '/Elapsed/ { print $2 }' "$work/time")
cache=$(du -sb "$work/cache" | cut -f1)
biggest=$(find "$work/cache" -type f -printf '%s\n' | sort -n | tail -1)
page=$(stat -c %s "$work/whatif.html")
SIMRUN_CACHE_DIR="$work/cache2" "$simrun" -q scenarios/gj256.xml --set p=128 --per-process 128 \
  --html "$work/gj256.html" > /dev/null
page256=$(stat -c %s "$work/gj256.html")
echo "what-if (80 points, -j $jobs, per-process p = 64): $wall wall"
row "peak memory, whole process tree" "$tree" $((1024 * 1048576))
printf '%-44s %14s\n' "peak memory, largest process (time -v)" "$(mib "$largest")"
row "cache, all 80 points" "$cache" $((50 * 1048576))
row "cache, largest entry" "$biggest" $((50 * 1048576))
row "HTML page" "$page" $((5 * 1048576))
row "gj256 at p = 128 (--per-process 128): page" "$page256" $((3 * 1048576))
