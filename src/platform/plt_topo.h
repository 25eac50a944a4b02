/* Topology generators: SimGrid platform XML (written with libxml2's xmlTextWriter) for a 2D mesh, a 2D torus, a
 * hypercube, a single switch and a fat tree, with node and link parameters from a preset machine or given. */
#ifndef PLT_TOPO_H
#define PLT_TOPO_H

#include <stddef.h>
#include <stdio.h>

typedef enum plt_topo_kind {
  PLT_TOPO_MESH = 0,  /* ROWSxCOLS hosts, each linked to its 4 neighbours; hosts carry simrun:row and simrun:col */
  PLT_TOPO_TORUS,     /* the mesh with wrap-around links in every dimension longer than 2 */
  PLT_TOPO_HYPERCUBE, /* 2^D hosts, host i linked to i xor 2^b for every bit b */
  PLT_TOPO_SWITCH,    /* N hosts, each linked to one switch */
  PLT_TOPO_FATTREE, /* K^L hosts under an L-level K-ary tree of switches; a level-m link carries K^m links' bandwidth */
  PLT_TOPO_COUNT
} plt_topo_kind_t;

/* The topology names as written on the command line ("mesh", "torus", "hypercube", "switch", "fattree"). */
extern const char *const plt_topo_names[];

/* The most hosts a generated platform may have. */
#define PLT_TOPO_MAX_HOSTS 4096

/* A machine whose node and link parameters a generated platform takes: SimGrid values (with units), the network
 * configuration, and the root-zone properties of simrun's machine model (sim_machine.h). Static data. */
typedef struct plt_topo_preset {
  const char *name;
  const char *summary;           /* the machine and the sources of its values, for the generated file's comment */
  const char *speed;             /* host speed, such as "25Mf" */
  const char *bandwidth;         /* link bandwidth, such as "751879.7Bps" */
  const char *latency;           /* link latency, such as "1us" */
  const char *const *config;     /* <config> properties: id, value, ..., NULL */
  const char *const *props;      /* root-zone properties: id, value, ..., NULL */
  const char *const *host_props; /* properties of every host: id, value, ..., NULL */
  /* Meshes and tori only: hosts in blocks of cluster_side x cluster_side (rows and columns from 0) form clusters;
   * a link between two clusters carries property SIM_CLUSTER_STAGES_PROP = cross_stages, and the root zone also gets
   * cluster_props. cluster_side 0: a flat machine. */
  int cluster_side;
  const char *cross_stages;
  const char *const *cluster_props;
} plt_topo_preset_t;

/* The preset called `name`, or NULL. */
const plt_topo_preset_t *plt_topo_preset(const char *name);
/* The presets' names, comma-separated, for messages and --help. A static string. */
const char *plt_topo_preset_names(void);

typedef struct plt_topo {
  plt_topo_kind_t kind;
  int size[2];                     /* mesh, torus: rows, columns; hypercube: dimension; switch: hosts; fattree: K, L */
  const plt_topo_preset_t *preset; /* or NULL: then speed, bandwidth and latency are required */
  const char *speed;               /* overrides the preset's when not NULL */
  const char *bandwidth;
  const char *latency;
  int native; /* mesh, torus, fattree: describe it for sim_grid.h (arithmetic routing) instead of listing its links */
} plt_topo_t;

/* Parses a kind name into *kind; 0, or SIM_EINVAL with a message listing the kinds. */
int plt_topo_parse_kind(const char *name, plt_topo_kind_t *kind, char *err, size_t errlen);

/* Parses the size of `kind` into size[]: "ROWSxCOLS" (mesh, torus), "D" (hypercube), "N" (switch), "K:L" (fattree).
 * 0, or SIM_EINVAL with a message saying the expected form and the limits. */
int plt_topo_parse_size(plt_topo_kind_t kind, const char *text, int size[2], char *err, size_t errlen);

/* Checks the parameters (each value a positive number with a SimGrid unit: speed f kf Mf Gf Tf; bandwidth Bps kBps
 * MBps GBps bps kbps Mbps Gbps; latency s ms us ns, zero allowed) and fills in the preset's for those not given.
 * 0, or SIM_EINVAL with a message naming the parameter. */
int plt_topo_resolve(plt_topo_t *topo, char *err, size_t errlen);

/* The number of hosts of a parsed topology; they are generated in natural name order (n0, n1, ... or n<row>-<col>). */
size_t plt_topo_hosts(const plt_topo_t *topo);

/* Whether `kind` can be written native (plt_topo_t.native): meshes, tori and fat trees. */
int plt_topo_has_native(plt_topo_kind_t kind);

/* Writes the platform of a resolved topology to `out`. 0, SIM_ENOMEM, or SIM_EIO with a message. */
int plt_topo_write(const plt_topo_t *topo, FILE *out, char *err, size_t errlen);

#endif
