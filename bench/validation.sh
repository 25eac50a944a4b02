#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Prints docs/validation.md's tables: simrun's Gauss-Jordan N = 256 times on the T800 platform against every measured
# figure of seed 001 (Tables 3-4), with the paper's own model beside, then the ablation: the error per point with each
# of simrun's mechanisms switched off in turn, by editing a copy of platforms/t800-mesh-128.xml.
# Usage (from anywhere): bench/validation.sh [path/to/simrun]   (default: build/simrun)
set -euo pipefail
cd "$(dirname "$0")/.."
simrun=${1:-build/simrun}
[ -x "$simrun" ] || { echo "bench/validation.sh: $simrun not built; run scripts/setup first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Seed 001, Tables 3 (one-to-all) and 4 (neighbour), N = 256, p = 1 2 4 ... 128: measured, then the paper's model.
ps="1 2 4 8 16 32 64 128"
measured_one="78.21 41.52 27.21 18.91 20.91 36.03 69.81 146.27"
model_one="74.26 39.98 23 17.32 19.75 36.12 73.41 160.9"
measured_nb="78.15 41.33 22.67 13.73 9.4 7.46 6.89 7.54"
model_nb="74.26 39.48 21.12 12 7.55 5.52 4.99 5.62"

# Each variant: a name and the sed script that makes it from the shipped platform (empty: the platform as shipped).
# two-buffers is the other forwarding mode (docs/t800.md, step 5); c004-1.6-bits and c004-2.0-bits are not ablations but
# the ends of the C004 delay's documented range (INMOS TN19: 1.6 to 2 bit times); table5-link-init is the option that
# charges Table 5's T_cni (the paper's model value) for link initialisation; onchip-spill is the hypothesis of the
# one-to-all deficit at p = 4, every on-chip (internal memory) access charged at the external-memory cost; vlink-ack
# makes every message wait for an acknowledgement of Table 2 at l = 0 (51.1 + 8.86 d us); relay-cpu charges a
# transputer that forwards a message while it computes gamma_1 = 8.86 us per packet (PARIX's router), relay-cpu-max the
# whole store-and-forward cycle, 2 x 0.68 x 120 + 8.86 = 172.06 us per packet (an upper bound: the links are DMA).
init_table5='1 0 2 0.001 4 0.004 8 0.01 16 0.03 32 0.07 64 0.17 128 0.49'
variants=(full "" \
  two-buffers 's/"simrun:forward-buffers" value="1"/"simrun:forward-buffers" value="2"/' \
  no-clusters '/simrun:c004-delay-bits\|simrun:link-bit-rate\|simrun:forward-buffers/d' \
  no-contention 's/bandwidth="751879.7Bps"/bandwidth="1e15Bps"/' \
  no-link-init 's/"simrun:link-init-us" value="1270"/"simrun:link-init-us" value="0"/' \
  no-host-io 's/"simrun:io-\(input\|output\)-us" value="[0-9. ]*"/"simrun:io-\1-us" value="0 0"/' \
  c004-1.6-bits 's/"simrun:c004-delay-bits" value="1.75"/"simrun:c004-delay-bits" value="1.6"/' \
  c004-2.0-bits 's/"simrun:c004-delay-bits" value="1.75"/"simrun:c004-delay-bits" value="2.0"/' \
  table5-link-init "s#<prop id=\"simrun:link-init-us\" value=\"1270\"/>#&<prop id=\"simrun:link-init-by-p\" value=\"$init_table5\"/>#" \
  onchip-spill 's/"simrun:cycles-intmem" value="10.9635"/"simrun:cycles-intmem" value="34.42766666666667"/' \
  vlink-ack "s#<prop id=\"simrun:forward-buffers\" value=\"1\"/>#&<prop id=\"simrun:ack-us\" value=\"51.1 8.86\"/>#" \
  relay-cpu "s#<prop id=\"simrun:forward-buffers\" value=\"1\"/>#&<prop id=\"simrun:relay-cpu-us\" value=\"8.86\"/>#" \
  relay-cpu-max "s#<prop id=\"simrun:forward-buffers\" value=\"1\"/>#&<prop id=\"simrun:relay-cpu-us\" value=\"172.06\"/>#")

# Runs scenarios/gj256.xml on variant $1 (sed script $2); leaves "broadcast p t_par" lines in $work/$1.txt.
run_variant() {
  sed "$2" platforms/t800-mesh-128.xml > "$work/$1.xml"
  if [ -n "$2" ] && cmp -s platforms/t800-mesh-128.xml "$work/$1.xml"; then
    echo "bench/validation.sh: variant $1 changes nothing in the platform" >&2
    exit 1
  fi
  sed "s#\.\./platforms/t800-mesh-128\.xml#$work/$1.xml#" scenarios/gj256.xml > "$work/$1-gj256.xml"
  "$simrun" -q --no-cache -j 2 --csv "$work/$1.csv" "$work/$1-gj256.xml" > /dev/null
  awk -F, 'NR == 1 { for (i = NF; i >= 1; i--) col[$i] = i
                     if (!col["broadcast"] || !col["p"] || !col["t_par_s"]) {
                       print "bench/validation.sh: no broadcast, p or t_par_s column" > "/dev/stderr"; exit 1 } 
                     next }
           { print $col["broadcast"], $col["p"], $col["t_par_s"] }' "$work/$1.csv" > "$work/$1.txt"
}

for ((i = 0; i < ${#variants[@]}; i += 2)); do
  run_variant "${variants[i]}" "${variants[i + 1]}"
done

# The time of variant $1 at broadcast $2, p $3.
t_par() { awk -v b="$2" -v p="$3" '$1 == b && $2 == p { print $3 }' "$work/$1.txt"; }

# Table 1: per point, measured, simrun (full), its error, the paper's model, its error.
echo "| broadcast | p | measured (s) | simrun (s) | error | paper's model (s) | error |"
echo "|---|---|---|---|---|---|---|"
for bcast in one-to-all neighbour; do
  if [ "$bcast" = one-to-all ]; then set -- $measured_one; m=("$@"); set -- $model_one; k=("$@")
  else set -- $measured_nb; m=("$@"); set -- $model_nb; k=("$@"); fi
  i=0
  for p in $ps; do
    awk -v b="$bcast" -v p="$p" -v m="${m[i]}" -v s="$(t_par full "$bcast" "$p")" -v k="${k[i]}" \
      'BEGIN { printf "| %s | %d | %.2f | %.2f | %+.1f%% | %.2f | %+.1f%% |\n", b, p, m, s, 100 * (s - m) / m, k,
               100 * (k - m) / m }'
    i=$((i + 1))
  done
done

# Table 2: the ablation, the error against the measured time per point with each mechanism off.
echo
header="| broadcast | p |"
rule="|---|---|"
for ((i = 0; i < ${#variants[@]}; i += 2)); do header="$header ${variants[i]} |"; rule="$rule---|"; done
echo "$header"
echo "$rule"
for bcast in one-to-all neighbour; do
  if [ "$bcast" = one-to-all ]; then set -- $measured_one; else set -- $measured_nb; fi
  m=("$@")
  i=0
  for p in $ps; do
    line="| $bcast | $p |"
    for ((v = 0; v < ${#variants[@]}; v += 2)); do
      line="$line $(awk -v m="${m[i]}" -v s="$(t_par "${variants[v]}" "$bcast" "$p")" \
        'BEGIN { printf "%+.1f%%", 100 * (s - m) / m }') |"
    done
    echo "$line"
    i=$((i + 1))
  done
done

# Mean and largest absolute errors over p = 2-128 per broadcast and variant, and the paper's model's ("mean / max").
# abs_errors prints one |error| per line for measured values $1 and predicted values $2 (p = 2-128: the 7 last).
abs_errors() {
  awk -v m="$1" -v s="$2" 'BEGIN { n = split(m, mv, " "); split(s, sv, " ")
    for (i = 2; i <= n; i++) { e = (sv[i] - mv[i]) / mv[i]; print (e < 0 ? -e : e) } }'
}
mean_max() { awk '{ sum += $1; if ($1 > max) max = $1 } END { printf "%.1f%% / %.1f%%", 100 * sum / NR, 100 * max }'; }
echo
header="| mean / max abs. error |"
rule="|---|"
for ((i = 0; i < ${#variants[@]}; i += 2)); do header="$header ${variants[i]} |"; rule="$rule---|"; done
echo "$header paper's model |"
echo "$rule---|"
for bcast in one-to-all neighbour; do
  if [ "$bcast" = one-to-all ]; then m_list=$measured_one; k_list=$model_one; else m_list=$measured_nb; k_list=$model_nb; fi
  line="| $bcast, p = 2-128 |"
  for ((v = 0; v < ${#variants[@]}; v += 2)); do
    sims=""
    for p in $ps; do sims="$sims $(t_par "${variants[v]}" "$bcast" "$p")"; done
    line="$line $(abs_errors "$m_list" "$sims" | mean_max) |"
  done
  echo "$line $(abs_errors "$m_list" "$k_list" | mean_max) |"
done

# The on-chip RAM hypothesis on its own trigger (docs/t800.md, "One-to-all at p = 4"): the onchip-spill variant for the
# one-to-all program from p = 4, the platform as shipped for every other point.
sims=""
for p in $ps; do
  if [ "$p" -ge 4 ]; then sims="$sims $(t_par onchip-spill one-to-all "$p")"; else sims="$sims $(t_par full one-to-all "$p")"; fi
done
echo
echo "onchip-spill on one-to-all from p = 4 only, errors p = 2-128: $(abs_errors "$measured_one" "$sims" | mean_max)"
