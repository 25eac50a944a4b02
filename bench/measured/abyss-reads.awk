# SPDX-License-Identifier: LGPL-2.1-or-later
# ABySS's case of bench/debian.sh and bench/abyss-polls.sh: 8000 reads of 100 bases (every other one reverse
# complemented) of a random genome of 20 kb, seeded, in FASTA (awk -f bench/measured/abyss-reads.awk > reads.fa).
function rc(s,  i, o, c) {
  for (i = length(s); i > 0; i--) {
    c = substr(s, i, 1)
    o = o (c == "A" ? "T" : c == "C" ? "G" : c == "G" ? "C" : "A")
  }
  return o
}
BEGIN {
  srand(26)
  for (i = 0; i < 20000; i++) g = g substr("ACGT", int(rand() * 4) + 1, 1)
  for (r = 0; r < 8000; r++) {
    s = substr(g, int(rand() * 19900) + 1, 100)
    printf ">r%d\n%s\n", r, r % 2 ? rc(s) : s
  }
}
