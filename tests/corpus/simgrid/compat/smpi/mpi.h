/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SimGrid's examples include SMPI's own MPI header; built with Open MPI's mpicc they get Open MPI's. */
#include <mpi.h>
