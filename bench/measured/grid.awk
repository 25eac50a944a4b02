# SPDX-License-Identifier: LGPL-2.1-or-later
# PT-Scotch dgord's case of bench/debian.sh and bench/here.sh: an n x n grid (awk -v n=500 -f grid.awk > grid.grf) in
# Scotch's graph format: its header, then each vertex's degree and neighbours.
BEGIN {
  print 0
  print n * n, 4 * n * (n - 1)
  print 0, "000"
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      v = i * n + j
      d = 0
      s = ""
      if (i > 0) { s = s " " v - n; d++ }
      if (j > 0) { s = s " " v - 1; d++ }
      if (j < n - 1) { s = s " " v + 1; d++ }
      if (i < n - 1) { s = s " " v + n; d++ }
      print d s
    }
}
