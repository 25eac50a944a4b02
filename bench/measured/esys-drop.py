# SPDX-License-Identifier: LGPL-2.1-or-later
# ESyS-Particle (Debian esys-particle): 1440 particles fall under gravity onto a floor for 8000 steps, the domain
# split between WORKERS processes along x, beside the master (mpirun -np WORKERS+1 esysparticle esys-drop.py WORKERS).
import sys
from esys.lsm import *
from esys.lsm.util import Vec3, BoundingBox
workers = int(sys.argv[1]) if len(sys.argv) > 1 else 1
sim = LsmMpi(numWorkerProcesses=workers, mpiDimList=[workers, 1, 1])
sim.initNeighbourSearch(particleType="NRotSphere", gridSpacing=2.5, verletDist=0.5)
sim.setNumTimeSteps(8000)
sim.setTimeStepSize(0.001)
sim.setSpatialDomain(BoundingBox(Vec3(-20, -20, -20), Vec3(20, 20, 20)))
n = 0
for i in range(24):
  for j in range(10):
    for k in range(6):
      sim.createParticle(NRotSphere(id=n, posn=Vec3(-18 + 1.5 * i, -5 + 1.5 * j, -4 + 1.5 * k), radius=0.6, mass=1.0))
      n += 1
sim.createInteractionGroup(NRotElasticPrms(name="elastic", normalK=1000.0, scaling=True))
sim.createInteractionGroup(GravityPrms(name="earth", acceleration=Vec3(0, -9.81, 0)))
sim.createWall(name="floor", posn=Vec3(0, -10, 0), normal=Vec3(0, 1, 0))
sim.createInteractionGroup(NRotElasticWallPrms(name="floorwall", wallName="floor", normalK=10000.0))
sim.run()
print("particles", n)
