/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Topology generators: SimGrid platform XML (written with libxml2's xmlTextWriter) for a 2D mesh, a 2D torus, a
 * hypercube, a single switch and a fat tree, with node and link parameters from a preset machine or given. The folder's
 * API: the topology and its parameters (plt_topo_param.h, presets in plt_topo_preset.h) and the writer (plt_topo.c). */
#ifndef PLT_TOPO_H
#define PLT_TOPO_H

#include "plt_topo_param.h"

#include <stddef.h>
#include <stdio.h>

/* Writes the platform of a resolved topology to `out`. 0, SIM_ENOMEM, or SIM_EIO with a message. */
int plt_topo_write(const plt_topo_t *topo, FILE *out, char *err, size_t errlen);

#endif
