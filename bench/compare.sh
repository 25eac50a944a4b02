#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# simrun compare on two large per-process tables (docs/results.md, issue 48 item 5): ROWS rows (default 1000000) of
# simrun's per-process shape (14 columns: scenario, platform, skeleton, n, broadcast, p, rank and 7 figures), 1000
# points of 1000 ranks, made by awk; B holds A's rows in reverse order, every figure moved by +0.1%, so that every row
# pairs by rank and nothing is beyond 5% (exit 0). Prints the CPU seconds (user + sys, not wall time: the machine may
# be shared) and the peak memory beside the targets: under 10 CPU s and 1 GiB for 10^6 rows.
# Usage: bench/compare.sh [ROWS]   (needs build/simrun)
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-1000000}
[ -x build/simrun ] || { echo "bench/compare.sh: build/simrun not built" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
table() { # $1: the factor on every figure, $2: 1 for the rows in reverse order
  awk -v n="$rows" -v f="$1" -v rev="$2" 'BEGIN {
    print "scenario,platform,skeleton,n,broadcast,p,rank,rank_work_s,rank_ovh_ctrl,rank_ovh_comm,rank_ovh_idle," \
          "rank_ovh_anomaly,rank_anomaly,rank_imbalance"
    for (k = 0; k < n; k++) {
      i = rev ? n - 1 - k : k; point = int(i / 1000); rank = i % 1000
      w = 1 + rank / 1000
      printf "big,mesh.xml,gauss-jordan,%d,%s,1000,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", 256 + point,
             point % 2 ? "neighbour" : "one-to-all", rank, w * f, 0.001 * w * f, 0.05 * w * f, 0.2 * f, 0.01 * f,
             0.003 * f, 0.007 * f
    }
  }'
}
table 1 0 > "$work/a.csv"
table 1.001 1 > "$work/b.csv"
status=0
/usr/bin/time -f '%U %S %M' -o "$work/time" build/simrun compare "$work/a.csv" "$work/b.csv" > "$work/out" || status=$?
read -r user sys kib < "$work/time"
echo "simrun compare, 2 x $rows rows of 14 columns ($(du -m "$work/a.csv" | cut -f1) MB each): exit $status," \
  "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') CPU seconds (user $user, sys $sys; target under 10)," \
  "peak $((kib / 1024)) MiB (target under 1024)"
sed -n '3,8p' "$work/out"
