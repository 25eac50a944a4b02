# SPDX-License-Identifier: LGPL-2.1-or-later
# shellcheck shell=bash
# The statistics the bench scripts print, sourced by them (`. bench/lib.sh` from the repository's root): one
# definition each, where eight scripts had their own copies in two meanings.

# median [COLUMN] < lines: the median of that column's numbers (default the first), the mean of the two middle ones
# for an even count; "-" for no lines.
median() {
  local c=${1:-1}
  sort -g -k "$c" | awk -v c="$c" '{ v[NR] = $c }
    END { if (!NR) print "-"; else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# lower_median < lines: the middle number, the lower of the two for an even count (a value that was measured, not
# a mean of two); "-" for no lines.
lower_median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'; }

# range [COLUMN] < lines: that column's least and largest numbers (default the first), "LEAST-LARGEST".
range() {
  local c=${1:-1}
  sort -g -k "$c" | awk -v c="$c" 'NR == 1 { lo = $c } { hi = $c } END { print lo "-" hi }'
}
