#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Issue 25's check, as a user would run it (docs/tracer.md, "Debian's MPI programs"): MPI programs packaged by Debian and
# linked to Open MPI, traced with libsimrun-trace.so at p = 1-4. For each program and p: CPU seconds (user + system of
# mpirun and its ranks) untraced and traced, the least of RUNS runs each, and their ratio beside the 1.2x target; the
# program's own check in the traced run; the TI trace's size (rank-*.txt), the timelines' and the folder's (beside the
# 20 MB target), as on disk (a file beyond 4 MiB of text is gzip: docs/tracer.md, "Large files");
# the replay by simrun (ti-replay on platforms/icluster-fe-32.xml) and, when the trace holds SMPI's actions only, by
# smpirun -replay. Programs: ScaLAPACK's LU test (xdlu, scalapack-mpi-test, its LU.dat: "0 tests completed and failed")
# NetPIPE (NPopenmpi, netpipe-openmpi, p = 2 only, 8 KB at most) and the Ray genome assembler (Ray, package ray, p = 2
# and 4: 600 reads of 100 bases drawn from a random genome of 5000 bases, seeded, so every run assembles the same
# reads; its check: a Contigs.fasta) and meep (meep-openmpi, p = 2: the FDTD of a straight waveguide, 32 x 16 at
# resolution 10, 20 time units, 400 steps; its check: its "run 0 finished" line). The trace measured is the last
# traced run's. Usage: bench/debian.sh [RUNS [WHICH]]
# (default 3 runs; WHICH an extended regular expression of the program names to run, default all)
# Added by the held-out check of issues 25 and 26 (docs/tracer.md, "More of Debian's programs"), at p = 1, 2 and 4:
# ExaML (examl, its own test data 49 taxa, -f e: the likelihood of the given tree, model and branch lengths optimised;
# check: "Likelihood tree 0"), GROMACS (gromacs, gmx_mpi mdrun -reprod: 884 SPC/E waters in a 3 nm box, PME, 1000 steps, seeded;
# check: its "Performance:" line), MPB (mpb-mpi: the TM bands of a square lattice of rods, resolution 32, 17 k-points;
# check: its "Gap from band 4" line), MPQC (mpqc, its example ksh2o.in: a KS geometry optimisation of water; check:
# "Value of the MolecularEnergy") and mpi4py's ring benchmark (python3-mpi4py, 10 000 loops of 1 KB; check: its
# "time for 10000 loops" line).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
which=${2:-.}
lib=$PWD/build/libsimrun-trace.so
simrun=$PWD/build/simrun
platform=$PWD/platforms/icluster-fe-32.xml
lu=/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests
for f in "$lib" "$simrun" "$lu/xdlu" /usr/bin/NPopenmpi /usr/bin/Ray /usr/bin/meep; do
  [ -e "$f" ] || { echo "bench/debian.sh: $f missing (build simrun; apt-get install scalapack-mpi-test netpipe-openmpi ray meep-openmpi)" >&2; exit 2; }
done
for f in /usr/lib/examl/bin/examl-avx2 /usr/bin/parse-examl /usr/bin/gmx_mpi /usr/bin/gmx /usr/bin/mpb-mpi /usr/bin/mpqc; do
  [ -e "$f" ] || { echo "bench/debian.sh: $f missing (apt-get install examl gromacs mpb-mpi mpqc python3-mpi4py)" >&2; exit 2; }
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$lu/LU.dat" "$work/"
cd "$work"
awk 'BEGIN { srand(25); for (i = 0; i < 5000; i++) g = g substr("ACGT", int(rand() * 4) + 1, 1)
             for (r = 0; r < 600; r++) printf ">r%d\n%s\n", r, substr(g, int(rand() * 4900) + 1, 100) }' > reads.fasta
cat > meep.ctl << 'CTL'
(set! geometry-lattice (make lattice (size 32 16 no-size)))
(set! geometry (list (make block (center 0 0) (size infinity 1 infinity) (material (make dielectric (epsilon 12))))))
(set! sources (list (make source (src (make continuous-src (frequency 0.15))) (component Ez) (center -7 0))))
(set! pml-layers (list (make pml (thickness 1.0))))
(set! resolution 10)
(run-until 20)
CTL
cp -r /usr/share/doc/examl/testData examl && gunzip -rf examl
parse-examl -s examl/49 -m DNA -n 49 > /dev/null
gmx solvate -cs spc216.gro -box 3 3 3 -o water.gro > /dev/null 2>&1
printf '#include "oplsaa.ff/forcefield.itp"\n#include "oplsaa.ff/spce.itp"\n[ system ]\nwater\n[ molecules ]\nSOL %d\n' \
  "$(grep -c OW water.gro)" > water.top
printf '%s\n' integrator=md dt=0.002 nsteps=1000 cutoff-scheme=Verlet coulombtype=PME rcoulomb=1.0 rvdw=1.0 nstlist=10 \
  tcoupl=v-rescale tc-grps=System tau-t=0.1 ref-t=300 constraints=h-bonds nstcalcenergy=100 nstenergy=100 nstlog=100 \
  gen-vel=yes gen-temp=300 gen-seed=26 > water.mdp
gmx grompp -f water.mdp -c water.gro -p water.top -o water.tpr > /dev/null 2>&1
cat > rods.ctl << 'CTL'
(set! num-bands 8)
(set! k-points (interpolate 4 (list (vector3 0 0 0) (vector3 0.5 0 0) (vector3 0.5 0.5 0) (vector3 0 0 0))))
(set! geometry (list (make cylinder (center 0 0 0) (radius 0.2) (height infinity)
                           (material (make dielectric (epsilon 12))))))
(set! geometry-lattice (make lattice (size 1 1 no-size)))
(set! resolution 32)
(run-tm)
CTL
cp /usr/share/doc/mpqc/examples/ksh2o.in .
# cpu ARGS...: the CPU seconds of one mpirun (its ranks are its children), from time's last line (a run that failed
# has a line before it saying so, which is said on stderr).
# A run past 600 s is stopped (xdlu at p = 4 can hang: docs/tracer.md); its CPU is then the time's.
cpu() {
  /usr/bin/time -f '%U %S' -o cpu.txt timeout 600 "$@" > out.txt 2>&1 || true
  grep -q 'exited with' cpu.txt && echo "bench/debian.sh: $* $(head -1 cpu.txt)" >&2
  awk 'END { print $1 + $2 }' cpu.txt
}
least() { sort -g | head -1; }
# one NAME P CHECK PROGRAM ARGS...: CHECK is an extended regular expression the traced run's output must match.
one() {
  local name=$1 np=$2 check=$3
  shift 3
  [[ $name =~ $which ]] || return 0
  local mpirun=(mpirun --oversubscribe -np "$np")
  : > plain; : > traced
  for ((i = 0; i < runs; i++)); do
    rm -rf rayout ExaML_* md.*
    cpu "${mpirun[@]}" "$@" >> plain
    rm -rf trace rayout ExaML_* md.*
    cpu "${mpirun[@]}" -x "LD_PRELOAD=$lib" -x "SIMRUN_TRACE_DIR=$PWD/trace" "$@" >> traced
  done
  local ok=no
  grep -qE "$check" out.txt && ok=yes
  local ti tl
  ti=$(cat trace/rank-*.txt | wc -c)
  tl=$(cat trace/timeline-*.txt | wc -c)
  cat > replay.xml << XML
<scenario name="$name"><platform file="$platform"/>
<program skeleton="ti-replay"><param name="trace" value="$PWD/trace/index.txt"/></program>
<sweep><param name="p" values="$np"/></sweep></scenario>
XML
  local t_simrun=failed t_smpi="not run (simrun's extensions)"
  "$simrun" -q --no-cache replay.xml --csv replay.csv > /dev/null 2> simrun.err &&
    t_simrun=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "t_par_s") c = i } NR == 2 { print $c }' replay.csv)
  if ! zgrep -qE '^[0-9]+ (comm_def|in|cancel|poll|loop) ' trace/rank-*.txt; then
    for ((r = 0; r < np; r++)); do echo "icluster-$r"; done > hosts.txt
    t_smpi=failed
    smpirun -np "$np" -platform "$platform" -hostfile hosts.txt -replay trace/index.txt --log=root.thres:critical \
      --log=smpi_replay.thres:info > /dev/null 2> smpi.err &&
      t_smpi=$(sed -n 's/.*Simulation time \([0-9.e+-]*\).*/\1/p' smpi.err | tail -1)
  fi
  local a b
  a=$(least < plain)
  b=$(least < traced)
  awk -v n="$name" -v p="$np" -v a="$a" -v b="$b" -v ok="$ok" -v ti="$ti" -v tl="$tl" -v s="$t_simrun" -v m="$t_smpi" \
    'BEGIN { printf "%-8s %2s %6.2f %6.2f %5.2f %5s %8.2f %9.2f %9.2f %10s  %s\n", n, p, a, b, b / a, ok, ti / 1e6, tl / 1e6,
             (ti + tl) / 1e6, s, m }'
}
printf "%-8s %2s %6s %6s %5s %5s %8s %9s %9s %10s  %s\n" program p "cpu" traced ratio check "TI MB" "timel. MB" \
  "folder MB" "simrun s" "smpirun s"
for p in 1 2 3 4; do
  one xdlu "$p" '0 tests completed and failed' "$lu/xdlu"
done
one NetPIPE 2 '^ *[0-9]+: +8192 bytes' /usr/bin/NPopenmpi -u 8192
for p in 2 4; do
  one ray "$p" 'Contigs.fasta' /usr/bin/Ray -k 21 -s reads.fasta -o rayout
done
one meep 2 'run 0 finished at t = 20' /usr/bin/meep meep.ctl
for p in 1 2 4; do
  one examl "$p" '^Likelihood tree 0' /usr/lib/examl/bin/examl-avx2 -f e -t examl/49.tree -m GAMMA -s 49.binary -n T1
  one gromacs "$p" '^Performance:' /usr/bin/gmx_mpi mdrun -s water.tpr -ntomp 1 -nb cpu -reprod -deffnm md
  one mpb "$p" 'Gap from band 4' /usr/bin/mpb-mpi rods.ctl
  one mpqc "$p" 'Value of the MolecularEnergy' /usr/bin/mpqc ksh2o.in
  one mpi4py "$p" 'time for 10000 loops' /usr/bin/python3 -m mpi4py.bench ringtest -n 1024 -l 10000
done
echo "machine load: $(cut -d' ' -f1-3 /proc/loadavg)"
