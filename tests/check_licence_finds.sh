#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The test of scripts/check-licence (issue 51): a temporary tree of the project's own files passes; then each kind of
# foreign file is planted in it in turn, alone, and the check must fail with the one error line that names it: a
# source without the project's SPDX line, a source with another licence's, a copyright notice in a text file, and a
# file in a folder named after another project. The notices are assembled here so that this file holds none.
set -euo pipefail
check=$(cd "$(dirname "$0")/.." && pwd)/scripts/check-licence
tree=$(mktemp -d "${TMPDIR:-/tmp}/simrun-licence-XXXXXX")
trap 'rm -rf "$tree"' EXIT
spdx='SPDX-License''-Identifier:'
c='(''C)'
mkdir -p "$tree/src" "$tree/tests/data"
printf '/* %s LGPL-2.1-or-later */\nint f(void) { return 0; }\n' "$spdx" >"$tree/src/own.c"
printf 'A licence text may hold its own notice: Copy%s %s 1991 the Free Software Foundation\n' right "$c" >"$tree/LICENSE"
printf '0 init\n0 finalize\n' >"$tree/tests/data/trace.txt"
"$check" "$tree" >/dev/null || { echo "check-licence refused a tree of the project's own files" >&2; exit 1; }

# plant PATH EXPECTED CONTENT: writes CONTENT to PATH in the tree, runs the check, which must fail with error lines
# that all name PATH's first folder, one of them containing EXPECTED; then removes that folder again.
plant() {
  mkdir -p "$(dirname "$tree/$1")"
  printf '%b' "$3" >"$tree/$1"
  local err
  if err=$("$check" "$tree" 2>&1); then
    echo "check-licence passed a tree with $1 planted" >&2
    exit 1
  fi
  if grep -v "^simrun: error: ${1%%/*}/" <<<"$err" | grep -q . || ! grep -qF -- "$2" <<<"$err"; then
    echo "check-licence on $1 planted said '$err', not '$2' alone" >&2
    exit 1
  fi
  echo "$err"
  rm -rf "${tree:?}/${1%%/*}"
  [ "${1%%/*}" != src ] || { mkdir -p "$tree/src" && printf '/* %s LGPL-2.1-or-later */\n' "$spdx" >"$tree/src/own.c"; }
}
plant src/unlicensed.c "src/unlicensed.c: no '$spdx LGPL-2.1-or-later' line" 'int g(void) { return 1; }\n'
plant src/other.c "src/other.c:1: another licence's SPDX line" "/* $spdx LGPL-2.1-only */\n"
plant docs/notes.md "docs/notes.md:2: a copyright or licence notice" "# Notes\n(c) Copy""right 2003 Someone Else\n"
plant tests/data/probe.c "tests/data/probe.c:2: a copyright or licence notice" "/* $spdx LGPL-2.1-or-later */\n *  $c 2001 by a laboratory\n"
plant tests/data/dt.c "tests/data/dt.c:2: a copyright or licence notice" "/* $spdx LGPL-2.1-or-later */\n Permission to use,"" copy\n"
plant tests/corpus/mpich/README "tests/corpus/mpich: a folder named after another project" 'test data\n'
plant tests/data/SimGrid/hosts "tests/data/SimGrid: a folder named after another project" 'host-0\n'
echo "check-licence found each planted file"
