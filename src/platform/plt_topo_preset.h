/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The preset machines of generated platforms (plt_topo_preset.c): their node and link parameters, network
 * configuration and machine-model properties. */
#ifndef PLT_TOPO_PRESET_H
#define PLT_TOPO_PRESET_H

#include "sim_prop.h"

/* A simrun property a preset writes, by its row of the table (sim_prop.h); a list ends with value NULL. */
typedef struct plt_topo_prop {
  sim_prop_id_t id;
  const char *value;
} plt_topo_prop_t;

/* A machine whose node and link parameters a generated platform takes: SimGrid values (with units), the network
 * configuration, and the root-zone properties of simrun's machine model (sim_machine.h). Static data. */
typedef struct plt_topo_preset {
  const char *name;
  const char *summary;               /* the machine and the sources of its values, for the generated file's comment */
  const char *speed;                 /* host speed, such as "25Mf" */
  const char *bandwidth;             /* link bandwidth, such as "751879.7Bps" */
  const char *latency;               /* link latency, such as "1us" */
  const char *const *config;         /* <config> properties: id, value, ..., NULL */
  const plt_topo_prop_t *props;      /* root-zone properties */
  const plt_topo_prop_t *host_props; /* properties of every host */
  /* Meshes and tori only: hosts in blocks of cluster_side x cluster_side (rows and columns from 0) form clusters;
   * a link between two clusters carries simrun:extra-c004-stages = cross_stages, and the root zone also gets
   * cluster_props. cluster_side 0: a flat machine. */
  int cluster_side;
  const char *cross_stages;
  const plt_topo_prop_t *cluster_props;
} plt_topo_preset_t;

/* The preset called `name`, or NULL. */
const plt_topo_preset_t *plt_topo_preset(const char *name);
/* The presets' names, comma-separated, for messages and --help. A static string. */
const char *plt_topo_preset_names(void);

#endif
