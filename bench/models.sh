#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Prints the model and speedup figures README.md and docs/icluster.md quote, from the shipped scenarios: pdgemm's FAST
# model against the simulation over the 119 grids of pdgemm-grids (mean and largest |diff|), pdtrsm's model per grid
# and the fastest grid per p (seed 003 §4.2), the ring multiply's speedup and efficiency at p = 3 (matmul100, seed 000
# Ex. 1.2: the paper measured 2.55 and 85%), and the best broadcast per p on the T800 (bcast-t800's study summary).
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
echo "== bcast-t800: the best broadcast per p (Gauss-Jordan N = 256 on the T800)"
"$simrun" -q bcast-t800 | sed -n '/^Study summary/,/^$/p' | grep -E '^ +[0-9]+ '
