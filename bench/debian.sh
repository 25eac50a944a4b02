#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Issue 25's check, as a user would run it (docs/history/tracer.md, "Debian's MPI programs"): MPI programs packaged by Debian and
# linked to Open MPI, traced with libsimrun-trace.so at p = 1-4. For each program and p: CPU seconds (user + system of
# mpirun and its ranks) untraced and traced, the least of RUNS runs each, and their ratio beside the 1.2x target; the
# program's own check in the traced run; the TI trace's size (rank-*.txt), the timelines' and the folder's (beside the
# 20 MB target), as on disk (a file beyond 4 MiB of text is zstd: docs/tracer.md, "Large files");
# the replay by simrun (ti-replay on platforms/icluster-fe-32.xml) and, when the trace holds SMPI's actions only, by
# smpirun -replay. Programs: ScaLAPACK's LU test (xdlu, scalapack-mpi-test, its LU.dat: "0 tests completed and failed")
# NetPIPE (NPopenmpi, netpipe-openmpi, p = 2 only, 8 KB at most) and the Ray genome assembler (Ray, package ray, p = 2
# and 4: 600 reads of 100 bases drawn from a random genome of 5000 bases, seeded, so every run assembles the same
# reads; its check: a Contigs.fasta) and meep (meep-openmpi, p = 2: the FDTD of a straight waveguide, 32 x 16 at
# resolution 10, 20 time units, 400 steps; its check: its "run 0 finished" line). The trace measured is the last
# traced run's. With LOAD=N, N busy loops run beside every run once the machine is probed (a loaded machine, as
# bench/here.sh's: the ratios are then what tracing costs where the ranks share their cores with other work).
# Usage: [PLATFORM=FILE] [LOAD=N] bench/debian.sh [RUNS [WHICH]]
# (default 3 runs; WHICH an extended regular expression of the program names to run, default all)
# Added by the held-out check of issues 25 and 26 (docs/history/tracer.md, "More of Debian's programs"), at p = 1, 2 and 4:
# ExaML (examl, its own test data 49 taxa, -f e: the likelihood of the given tree, model and branch lengths optimised;
# check: "Likelihood tree 0"), GROMACS (gromacs, gmx_mpi mdrun -reprod: 884 SPC/E waters in a 3 nm box, PME, 1000 steps, seeded;
# check: its "Performance:" line), MPB (mpb-mpi: the TM bands of a square lattice of rods, resolution 32, 17 k-points;
# check: its "Gap from band 4" line), MPQC (mpqc, its example ksh2o.in: a KS geometry optimisation of water; check:
# "Value of the MolecularEnergy") and mpi4py's ring benchmark (python3-mpi4py, 10 000 loops of 1 KB; check: its
# "time for 10000 loops" line).
# Added by a second held-out check (docs/history/tracer.md, "A third set of Debian's programs"), at p = 1, 2 and 4, one OpenMP
# thread a rank: Elk (elk-lapw, its example basic/Al; check: its "total energy" in INFO.OUT), CP2K (cp2k, cp2k.psmp on
# its example H2O.inp as one energy; check: its "ENERGY|" line), NWChem (nwchem-openmpi, an SCF of water in 6-31G*;
# check: "Total SCF energy"), ParFORM (form: (x+y+z+w)^40 (x-y+2z)^10 (1+x)^3; check: H's "Terms in output = 92696"),
# PnetCDF (pnetcdf-bin: ncmpidiff of two files of 200 000 doubles that ncmpigen wrote; check: "All variables of two
# files are the same"), StarPU (starpu-examples, mpi_cholesky -size 1920 -nblocks 8 -check, one CPU worker a rank;
# check: its "comparing results" line and no "Error[" line, which it prints for each wrong element), h5py (python3-h5py-mpi: a script of this bench with
# reductions on split communicators, an Iallreduce a step and a parallel HDF5 file written and read back; check: its
# "total ... ok 1") and HyPhy (hyphy-mpi: FEL on its p51.nex; check: "Found _2_ sites"). The check column says "same"
# when the traced run's checked line is the untraced one's, "differs" when it is not (MPB's last digits do), "no"
# when the traced run has none; the last column, for a trace whose only extensions are loop and poll, the same run
# traced again with SIMRUN_TRACE_FORMAT=smpi and replayed by simrun and smpirun.
# Added by a third held-out check of issue 26 (docs/history/tracer.md, "A fourth set of Debian's programs"), at p = 1, 2 and 4,
# one OpenMP thread a rank: Quantum ESPRESSO (quantum-espresso, pw.x: an SCF of 8 silicon atoms in the cubic cell with
# its examples' Si.pz-vbc.UPF, ecutwfc 20 Ry, 2x2x2 k-points; check: its "!    total energy" line), ScaLAPACK's QR
# test (xdqr: QR, QL, LQ and RQ of 400 x 400 matrices, 6 problems and 2 block sizes, on one grid of p ranks, 1x1, 1x2
# or 2x2; check: "48 tests completed and passed"), ABySS (abyss, ABYSS-P -k25: 8000 reads of 100 bases, half of them
# reverse-complemented, drawn from a random genome of 20 000 bases, seeded; check: "Assembled 19939 k-mer in 1
# contigs") and PhyML (phyml, phyml-mpi: 4 bootstraps of the first 20 taxa of its example "nucleic", at p = 2 and 4
# only: it refuses one rank; check: its "Log likelihood of the current tree" line), IQ-TREE (iqtree, iqtree2-mpi: GTR+G
# on its example.phy, seeded; check: its "BEST SCORE FOUND" line) and MolDS (molds: ZINDO/S and a Davidson CIS of 18
# waters on a 3 x 3 x 2 grid, 20 x 20 active orbitals; check: its first "Excitation energies" line; at p = 2 and 4 it
# calls MPI from a second thread, so its trace has no index.txt and the replay column says "failed").
# Added by a fourth held-out check of issue 26 (docs/history/tracer.md, "A fifth set of Debian's programs"), at p = 1, 2, 3
# and 4: LIGGGHTS (liggghts, a LAMMPS derivative: 7000-7400 granular spheres of 2.5 mm poured into a 10 x 10 x 15 cm
# box, inserted seeded, then 3000 steps; check: its step-3001 thermo line) and PT-Scotch (ptscotch, dgord: the nested
# dissection ordering of a 500 x 500 grid graph, one Scotch thread a rank, SCOTCH_PTHREAD_NUMBER=1, without which its
# threads call MPI and the trace has no index.txt; check: the ordering file, whole).
# Added by issue 47's held-out check rehearsed (docs/analyse.md, "Replaying"), at p = 1, 2 and 4 (mplrs at 3 and 4,
# tree-ppuzzle at 2 and 4: they refuse fewer ranks): mpgrafic (its example Input.stdin, a 128^3 grid, seed 1234;
# check: its "Mean sigma" lines), ffindex_apply_mpi (ffindex: 48 entries of 3000 lines of random numbers, each
# compressed by an xz child; check: the merged out.ffindex), tree-ppuzzle (a random alignment of 24 taxa of 400
# bases, seeded; check: its "log L:" line), mplrs (lrslib: the facets of the convex hull of 50 random points in
# dimension 8, seeded; check: "facets=13857") and ABINIT (abinit: its tutorial tbase3_5's first dataset, an SCF of
# bulk silicon on 4 x 4 x 4 x 4 k-points, one OpenMP thread a rank; check: its "etotal1" line).
# Added by issue 47's replay of a sender far ahead of its receiver (docs/ti-replay.md), at p = 2 and 4 (it refuses one
# rank): Murasaki (murasaki-mpi: the anchors between two sequences of 200,000 bases, bench/lib.sh's murasaki_input;
# check: its "Total anchors:" line), whose hashing rank sends some 275,000 eager messages of each of two tags.
# Its last column (issue 26's loop closed: docs/history/validation.md, "Debian's programs replayed here"): this machine probed
# once (simrun machine probe), and each case's last trace replayed on it by simrun analyse --replay-on against the
# median of the RUNS untraced runs' wall time (mpirun's, start-up included: an empty MPI program's takes 0.4-0.5 s),
# "measured / predicted (difference)"; on a loaded machine run the bench at the highest priority for it
# (docs/validation.md: setsid bash -c 'echo -20 > /proc/$$/autogroup; exec nice -n -20 bench/debian.sh ...').
set -euo pipefail
given=${PLATFORM:+$(realpath "$PLATFORM")}
cd "$(dirname "$0")/.."
. bench/lib.sh
runs=${1:-3}
which=${2:-.}
lib=$PWD/build/libsimrun-trace.so
simrun=$PWD/build/simrun
platform=$PWD/platforms/icluster-fe-32.xml
repo=$PWD
lu=/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests
for f in "$lib" "$simrun" "$lu/xdlu" /usr/bin/NPopenmpi /usr/bin/Ray /usr/bin/meep; do
  [ -e "$f" ] || { echo "bench/debian.sh: $f missing (build simrun; apt-get install scalapack-mpi-test netpipe-openmpi ray meep-openmpi)" >&2; exit 2; }
done
for f in /usr/lib/examl/bin/examl-avx2 /usr/bin/parse-examl /usr/bin/gmx_mpi /usr/bin/gmx /usr/bin/mpb-mpi /usr/bin/mpqc; do
  [ -e "$f" ] || { echo "bench/debian.sh: $f missing (apt-get install examl gromacs mpb-mpi mpqc python3-mpi4py)" >&2; exit 2; }
done
starpu=/usr/lib/x86_64-linux-gnu/starpu/mpi
for f in /usr/bin/elk-lapw /usr/bin/cp2k.psmp /usr/bin/nwchem.openmpi /usr/bin/parform /usr/bin/ncmpigen "$starpu/mpi_cholesky" \
  /usr/lib/hyphy/bin/HYPHYMPI-avx /usr/share/hyphy/data/p51.nex; do
  [ -e "$f" ] || { echo "bench/debian.sh: $f missing (apt-get install elk-lapw cp2k nwchem-openmpi form pnetcdf-bin starpu-examples python3-h5py-mpi hyphy-mpi)" >&2; exit 2; }
done
qe=/usr/share/doc/quantum-espresso/examples
for f in /usr/bin/pw.x "$qe/EPW/sic/pp/Si.pz-vbc.UPF.gz" "$lu/xdqr" /usr/lib/abyss/ABYSS-P /usr/bin/phyml-mpi \
  /usr/share/doc/phyml/examples/nucleic /usr/bin/iqtree2-mpi /usr/share/doc/iqtree/examples/example.phy /usr/bin/molds; do
  [ -e "$f" ] || { echo "bench/debian.sh: $f missing (apt-get install quantum-espresso scalapack-mpi-test abyss phyml iqtree molds)" >&2; exit 2; }
done
for f in /usr/bin/liggghts /usr/bin/dgord; do
  [ -e "$f" ] || { echo "bench/debian.sh: $f missing (apt-get install liggghts ptscotch)" >&2; exit 2; }
done
for f in /usr/bin/mpgrafic /usr/bin/ffindex_apply_mpi /usr/bin/tree-ppuzzle /usr/bin/mplrs /usr/bin/abinit \
  /usr/share/doc/abinit/examples/tbase3_5.abi /usr/bin/murasaki-mpi; do
  [ -e "$f" ] || { echo "bench/debian.sh: $f missing (apt-get install mpgrafic ffindex tree-ppuzzle mplrs abinit murasaki-mpi)" >&2; exit 2; }
done
mpi_ready bench/debian.sh
cp "$lu/LU.dat" "$work/"
cd "$work"
# the probe refuses a fit the load made too noisy: tried three times (PLATFORM=FILE: that probed platform instead)
[ -z "$given" ] || cp "$given" here.xml
for _ in 1 2 3; do
  [ -f here.xml ] || "$simrun" machine probe here.xml > /dev/null 2>&1 || true
done
[ -f here.xml ] || { echo "bench/debian.sh: simrun machine probe failed three times: give PLATFORM=FILE" >&2; exit 1; }
busy_loops "${LOAD:-0}"
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
sed "s|'../../../species/'|'/usr/share/elk-lapw/species/'|" /usr/share/doc/elk-lapw/examples/basic/Al/elk.in > elk.in
sed 's/RUN_TYPE MD/RUN_TYPE ENERGY/' /usr/share/doc/cp2k/examples/H2O.inp > H2O.inp
cat > h2o.nw << 'NW'
start h2o
geometry units angstrom
  O 0.0 0.0 0.0
  H 0.0 0.757 0.587
  H 0.0 -0.757 0.587
end
basis
  * library 6-31g*
end
task scf energy
NW
printf '%s\n' 'Symbols x,y,z,w;' 'Local F = (x+y+z+w)^40;' .sort 'Local G = F*(x-y+2*z)^10;' .sort \
  'Local H = G*(1+x)^3;' .end > poly.frm
awk 'BEGIN { n = 200000; printf "netcdf t {\ndimensions:\n  x = %d ;\nvariables:\n  double v(x) ;\ndata:\n v = ", n
             for (i = 0; i < n; i++) printf "%s%.1f", i ? ", " : "", i / 2; print " ;\n}" }' > t.cdl
ncmpigen -v 2 -o a.nc t.cdl && mpirun --oversubscribe -np 2 ncmpigen -v 2 -o b.nc t.cdl > /dev/null
cat > h5.py << 'PY'
from mpi4py import MPI
import h5py, numpy as np
comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
cols = 2 if size % 2 == 0 else 1
row, col = comm.Split(rank // cols, rank), comm.Split(rank % cols, rank)
x = np.full(200000, rank, dtype='f8')
total = 0.0
for step in range(200):
    total += col.allreduce(row.allreduce(float(x[step]), op=MPI.SUM), op=MPI.SUM)
    req = comm.Iallreduce(MPI.IN_PLACE, x[:16], op=MPI.MAX)
    x[16:] *= 1.0000001
    req.Wait()
    row.gather(step, root=0)
    comm.Barrier()
with h5py.File('out.h5', 'w', driver='mpio', comm=comm) as f:
    f.create_dataset('x', (size, x.size), dtype='f8')[rank, :] = x
comm.Barrier()
with h5py.File('out.h5', 'r', driver='mpio', comm=comm) as f:
    ok = comm.allreduce(int(np.array_equal(f['x'][rank, :], x)), op=MPI.MIN)
if rank == 0:
    print('total %.6f ok %d' % (total, ok))
PY
cp /usr/share/hyphy/data/p51.nex .
mkdir -p pseudo && zcat "$qe/EPW/sic/pp/Si.pz-vbc.UPF.gz" > pseudo/Si.pz-vbc.UPF
cat > si.in << 'IN'
 &control
    calculation = 'scf', prefix = 'si', outdir = './qe-tmp', pseudo_dir = './pseudo'
 /
 &system
    ibrav = 1, celldm(1) = 10.26, nat = 8, ntyp = 1, ecutwfc = 20.0
 /
 &electrons
    conv_thr = 1.0d-8
 /
ATOMIC_SPECIES
 Si 28.086 Si.pz-vbc.UPF
ATOMIC_POSITIONS crystal
 Si 0.00 0.00 0.00
 Si 0.50 0.50 0.00
 Si 0.50 0.00 0.50
 Si 0.00 0.50 0.50
 Si 0.25 0.25 0.25
 Si 0.75 0.75 0.25
 Si 0.75 0.25 0.75
 Si 0.25 0.75 0.75
K_POINTS automatic
 2 2 2 0 0 0
IN
# qr_dat ROWS COLS: xdqr's QR.dat for one process grid (its other grids would run at a larger p only)
qr_dat() {
  printf '%s\n' "'ScaLAPACK QR input'" "'MPI machine'" "'QR.out'" 6 4 "'QR' 'QL' 'LQ' 'RQ'" 6 '400 400 400 400 400 400' \
    '400 400 400 400 400 400' 2 '16 32' '16 32' 1 "$1" "$2" 5.0 > QR.dat
}
awk -f "$repo/bench/measured/abyss-reads.awk" > abyss-reads.fa
cp /usr/share/doc/iqtree/examples/example.phy .
{ printf '%s\n' THEORY zindo/s THEORY_END SCF 'max_iter 100' 'rms_density 0.000001' SCF_END CIS 'davidson yes' \
    'active_occ 20' 'active_vir 20' 'nstates 5' 'max_iter 200' 'max_dim 100' 'norm_tol 0.000001' CIS_END GEOMETRY
  awk 'BEGIN { for (i = 0; i < 3; i++) for (j = 0; j < 3; j++) for (k = 0; k < 2; k++) {
                 x = 3 * i; y = 3 * j; z = 3 * k
                 printf "O %.4f %.4f %.4f\nH %.4f %.4f %.4f\nH %.4f %.4f %.4f\n", x, y, z, x + 0.9572, y, z, x - 0.24,
                        y + 0.9266, z } }'
  echo GEOMETRY_END; } > water18.in
awk 'NR == 1 { print "20 886"; next } /^[[:space:]]*$/ { k = 0; print; next } { if (++k <= 20) print }' \
  /usr/share/doc/phyml/examples/nucleic > nuc20
cp "$repo/bench/measured/liggghts-pour.in" in.pour
awk -v n=500 -f "$repo/bench/measured/grid.awk" > grid.grf
cp /usr/share/doc/mpgrafic/examples/Input.stdin mpgrafic.in
mkdir ffin
awk 'BEGIN { srand(47); for (f = 0; f < 48; f++) { n = sprintf("ffin/e%02d", f)
               for (l = 0; l < 3000; l++) { s = ""; for (k = 0; k < 8; k++) s = s " " int(rand() * 1000); print s > n }
               close(n) } }'
ffindex_build -s in.ffdata in.ffindex ffin
awk 'BEGIN { srand(47); for (i = 0; i < 400; i++) a[i] = substr("ACGT", int(rand() * 4) + 1, 1); print "24 400"
             for (t = 0; t < 24; t++) { s = ""
               for (i = 0; i < 400; i++) s = s (rand() < 0.02 * (t % 6 + 1) ? substr("ACGT", int(rand() * 4) + 1, 1) : a[i])
               printf "t%-9d%s\n", t, s } }' > tp.phy
echo y > yes.txt
murasaki_input .
awk 'BEGIN { srand(47); print "rand\nV-representation\nbegin\n50 9 integer"
             for (i = 0; i < 50; i++) { r = "1"; for (j = 0; j < 8; j++) r = r " " int(rand() * 2001) - 1000; print r }
             print "end" }' > rnd.ext
sed 's/^ndtset 2/ndtset 1/' /usr/share/doc/abinit/examples/tbase3_5.abi > si.abi
# cpu ARGS...: the CPU seconds of one mpirun (its ranks are its children), from time's last line (a run that failed
# has a line before it saying so, which is said on stderr).
# A run past 600 s is stopped (xdlu at p = 4 can hang: docs/tracer.md) and gives "timeout", not a CPU time: time
# measures what timeout reaped, not the ranks mpirun had not (Ray at p = 4 under load once gave 0.28 s, a ratio of 0).
cpu() {
  /usr/bin/time -f '%U %S %e' -o cpu.txt timeout 600 "$@" < "${stdin:-/dev/stdin}" > out.txt 2>&1 || true
  grep -q 'exited with' cpu.txt && echo "bench/debian.sh: $* $(head -1 cpu.txt)" >&2
  if grep -q 'exited with non-zero status 124' cpu.txt; then echo timeout; else awk 'END { print $1 + $2 }' cpu.txt; fi
}
# least < lines: the least CPU time of the runs that ended, or nan when none did.
least() { { grep -v timeout || true; } | sort -g | awk 'NR == 1 { v = $1 } END { print NR ? v : "nan" }'; }
# replay_here DIR P SECONDS: "SECONDS / predicted (difference)" of DIR's trace replayed on here.xml, or "failed" (a
# folder simrun analyse refuses too, MolDS' at p = 2 without index.txt: its exit status, through pipefail, stopped the
# script there).
replay_here() {
  { "$simrun" analyse "$1" --replay-on here.xml --untraced "$2=$3" 2> here.err || true; } |
    awk -v p="$2" '$1 == p && $3 == "(untraced)" { print $2 " / " $4 " (" $5 ")"; ok = 1 } END { if (!ok) print "failed" }'
}
# replay_simrun DIR P: T_par of ti-replay on $platform, or "failed".
replay_simrun() {
  cat > replay.xml << XML
<scenario name="debian"><platform file="$platform"/>
<program skeleton="ti-replay"><param name="trace" value="$PWD/$1/index.txt"/></program>
<sweep><param name="p" values="$2"/></sweep></scenario>
XML
  "$simrun" -q --no-cache replay.xml --csv replay.csv > /dev/null 2> simrun.err &&
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "t_par_s") c = i } NR == 2 { print $c }' replay.csv ||
    echo failed
}
# replay_smpi DIR P: smpirun -replay's simulated time on $platform, or "failed" (a deadlock too: SMPI's replay keeps
# one request per source, destination and tag, docs/tracer.md). Page faults (simrun's `faults` lines) are left out,
# as docs/tracer-extras.md says: SMPI has no such action.
replay_smpi() {
  for ((r = 0; r < $2; r++)); do echo "icluster-$r"; done > hosts.txt
  rm -rf smpi-ti && mkdir smpi-ti
  for ((r = 0; r < $2; r++)); do
    zcat -f "$1/rank-$r.txt" | sed '/^[0-9]* faults /d' > "smpi-ti/rank-$r.txt"
    echo "$PWD/smpi-ti/rank-$r.txt"
  done > smpi-ti/index.txt
  local t=
  smpirun -np "$2" -platform "$platform" -hostfile hosts.txt -replay smpi-ti/index.txt --log=root.thres:critical \
    --log=smpi_replay.thres:info > /dev/null 2> smpi.err &&
    t=$(sed -n 's/.*Simulation time \([0-9.e+-]*\).*/\1/p' smpi.err | tail -1)
  echo "${t:-failed}"
}
# one NAME P CHECK PROGRAM ARGS...: CHECK is an extended regular expression the traced run's output must match
# (checkfile=FILE: FILE's, not the output; stdin=FILE: the program reads FILE).
one() {
  local name=$1 np=$2 check=$3
  shift 3
  [[ $name =~ $which ]] || return 0
  local mpirun=(mpirun --oversubscribe -np "$np")
  local checked=${checkfile:-out.txt}
  : > plain; : > traced; : > walls
  for ((i = 0; i < runs; i++)); do
    rm -rf rayout ExaML_* md.* abyss.fa contigs-*.fa nuc20_phyml_* qe-tmp grid.ord out.ffdata* out.ffindex* tp.phy.* \
      si.abo* sio_* sit_*
    cpu "${mpirun[@]}" "$@" >> plain
    awk 'END { print $3 }' cpu.txt >> walls
    cp "$checked" plain-out.txt
    rm -rf trace rayout ExaML_* md.* abyss.fa contigs-*.fa nuc20_phyml_* qe-tmp grid.ord out.ffdata* out.ffindex* \
      tp.phy.* si.abo* sio_* sit_*
    cpu "${mpirun[@]}" -x "LD_PRELOAD=$lib" -x "SIMRUN_TRACE_DIR=$PWD/trace" "$@" >> traced
  done
  local ok=no
  if grep -aqE "$check" "$checked" && ! { [ -n "${rejected:-}" ] && grep -aqE "$rejected" "$checked"; }; then
    ok=differs
    [ "$(grep -aE "$check" "$checked")" = "$(grep -aE "$check" plain-out.txt)" ] && ok=same
  fi
  local ti tl
  ti=$(cat trace/rank-*.txt | wc -c)
  tl=$(cat trace/timeline-*.txt | wc -c)
  local t_simrun t_smpi="not run (simrun's extensions)" t_here
  t_simrun=$(replay_simrun trace "$np")
  t_here=$(replay_here trace "$np" "$(lower_median < walls)")
  if ! zstdcat -f trace/rank-*.txt | grep -E '^[0-9]+ (comm_def|in|cancel|poll|loop) ' > /dev/null; then
    t_smpi=$(replay_smpi trace "$np")
  elif ! zstdcat -f trace/rank-*.txt | grep -E '^[0-9]+ (comm_def|in|cancel) ' > /dev/null; then
    rm -rf smpitrace
    cpu "${mpirun[@]}" -x "LD_PRELOAD=$lib" -x "SIMRUN_TRACE_DIR=$PWD/smpitrace" -x SIMRUN_TRACE_FORMAT=smpi "$@" > /dev/null
    t_smpi="SMPI format: $(replay_simrun smpitrace "$np") = $(replay_smpi smpitrace "$np")"
  fi
  local a b
  a=$(least < plain)
  b=$(least < traced)
  local late
  late=$(cat plain traced | grep -c timeout || true)
  awk -v n="$name" -v p="$np" -v a="$a" -v b="$b" -v ok="$ok" -v ti="$ti" -v tl="$tl" -v s="$t_simrun" -v m="$t_smpi" \
    -v h="$t_here" -v late="$late" 'function cpu(x) { return x == "nan" ? "-" : sprintf("%.2f", x) }
      BEGIN { r = a != "nan" && b != "nan" && a > 0 ? sprintf("%.2f", b / a) : "-"
              printf "%-8s %2s %6s %6s %5s %7s %8.2f %9.2f %9.2f %10s  %s  here: %s%s\n", n, p, cpu(a), cpu(b), r, ok,
                     ti / 1e6, tl / 1e6, (ti + tl) / 1e6, s, m, h, (late > 0 ? "  (" late " run(s) past 600 s left out)" : "") }'
}
printf "%-8s %2s %6s %6s %5s %7s %8s %9s %9s %10s  %s  %s\n" program p "cpu" traced ratio check "TI MB" "timel. MB" \
  "folder MB" "simrun s" "smpirun s" "here: mpirun s / predicted s"
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
for p in 1 2 4; do
  OMP_NUM_THREADS=1 checkfile=INFO.OUT one elk "$p" 'total energy +: +-241\.9169670' /usr/bin/elk-lapw
  OMP_NUM_THREADS=1 one cp2k "$p" 'ENERGY\| Total FORCE_EVAL' /usr/bin/cp2k.psmp -i H2O.inp
  one nwchem "$p" 'Total SCF energy' /usr/bin/nwchem.openmpi h2o.nw
  one parform "$p" '^ +H +Terms in output = +92696' /usr/bin/parform poly.frm
  one pnetcdf "$p" 'All variables of two files are the same' /usr/bin/ncmpidiff a.nc b.nc
  STARPU_NCPU=1 STARPU_SILENT=1 rejected='Error\[' one starpu "$p" 'comparing results' "$starpu/mpi_cholesky" -size 1920 \
    -nblocks 8 -check
  one h5py "$p" 'total [0-9.]+ ok 1' /usr/bin/python3 h5.py
  one hyphy "$p" 'Found _2_ sites' /usr/lib/hyphy/bin/HYPHYMPI-avx fel --alignment p51.nex
done
grids=([1]="1 1" [2]="1 2" [4]="2 2")
for p in 1 2 4; do
  OMP_NUM_THREADS=1 one pw.x "$p" '^!    total energy' /usr/bin/pw.x -in si.in
  # shellcheck disable=SC2086 # a grid is two numbers
  qr_dat ${grids[$p]}
  one xdqr "$p" '48 tests completed and passed' "$lu/xdqr"
  one abyss "$p" '^Assembled 19939 k-mer in 1 contigs' /usr/lib/abyss/ABYSS-P -k25 abyss-reads.fa -o abyss.fa
done
for p in 2 4; do
  one phyml "$p" '^\. Log likelihood of the current tree' /usr/bin/phyml-mpi -i nuc20 -b 4 --r_seed 26 --no_memory_check
done
for p in 1 2 4; do
  OMP_NUM_THREADS=1 one iqtree "$p" '^BEST SCORE FOUND' /usr/bin/iqtree2-mpi -s example.phy -m GTR+G -seed 26 -T 1 -redo
  OMP_NUM_THREADS=1 one molds "$p" 'Excitation energies:.1' /usr/bin/molds water18.in
done
for p in 1 2 3 4; do
  one liggghts "$p" '^ +3001 ' /usr/bin/liggghts -in in.pour -log none
  SCOTCH_PTHREAD_NUMBER=1 checkfile=grid.ord one dgord "$p" '^[0-9]' /usr/bin/dgord grid.grf grid.ord
done
for p in 1 2 4; do
  stdin=mpgrafic.in one mpgrafic "$p" 'Mean sigma' /usr/bin/mpgrafic --np=128
  checkfile=out.ffindex one ffindex "$p" '^e[0-9]+' /usr/bin/ffindex_apply_mpi -d out.ffdata -i out.ffindex in.ffdata \
    in.ffindex -- xz -6 -c
  ABI_PSPDIR=/usr/share/abinit/psp OMP_NUM_THREADS=1 checkfile=si.abo one abinit "$p" 'etotal1' /usr/bin/abinit si.abi
done
for p in 2 4; do
  stdin=yes.txt checkfile=tp.phy.puzzle one tpuzzle "$p" 'log L:' /usr/bin/tree-ppuzzle tp.phy
done
for p in 3 4; do
  one mplrs "$p" 'facets=13857' /usr/bin/mplrs rnd.ext rnd.ine
done
for p in 2 4; do
  one murasaki "$p" '^Total anchors: ' /usr/bin/murasaki-mpi -p11101001010011011 a.fa b.fa
done
echo "machine load: $(cut -d' ' -f1-3 /proc/loadavg)"
