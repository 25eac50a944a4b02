/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A generated platform's topology (plt_topo_param.c): its kind, size and parameters, parsed and checked, and the
 * counts and link bandwidths that the graph and the writer take from it. The folder's API is plt_topo.h. */
#ifndef PLT_TOPO_PARAM_H
#define PLT_TOPO_PARAM_H

#include "plt_topo_preset.h"

#include <stddef.h>

typedef enum plt_topo_kind {
  PLT_TOPO_MESH = 0,  /* ROWSxCOLS hosts, each linked to its 4 neighbours; hosts carry simrun:row and simrun:col */
  PLT_TOPO_TORUS,     /* the mesh with wrap-around links in every dimension longer than 2 */
  PLT_TOPO_HYPERCUBE, /* 2^D hosts, host i linked to i xor 2^b for every bit b */
  PLT_TOPO_SWITCH,    /* N hosts, each linked to one switch */
  PLT_TOPO_FATTREE, /* K^L hosts under an L-level K-ary tree of switches; a level-m link carries K^m links' bandwidth */
  PLT_TOPO_DRAGONFLY, /* G groups of C chassis of R routers with N hosts each: SimGrid's own DRAGONFLY cluster */
  PLT_TOPO_COUNT
} plt_topo_kind_t;

/* The topology names as written on the command line ("mesh", "torus", "hypercube", "switch", "fattree",
 * "dragonfly"). */
extern const char *const plt_topo_names[];

/* The most hosts a generated platform may have: with explicit routing (every link and route listed in the file), and
 * as a native mesh, torus or fat tree (a zone of properties that simrun builds at load time, sim_grid.h). */
#define PLT_TOPO_MAX_HOSTS        4096
#define PLT_TOPO_MAX_NATIVE_HOSTS 1048576

typedef struct plt_topo {
  plt_topo_kind_t kind;
  int size[4]; /* mesh, torus: rows, columns; hypercube: dimension; switch: hosts; fattree: K, L; dragonfly: G, C, R, N
                */
  const plt_topo_preset_t *preset; /* or NULL: then speed, bandwidth and latency are required */
  const char *speed;               /* overrides the preset's when not NULL */
  const char *bandwidth;
  const char *latency;
  int native; /* mesh, torus, fattree: describe it for sim_grid.h (arithmetic routing) instead of listing its links */
} plt_topo_t;

/* Parses a kind name into *kind; 0, or SIM_EINVAL with a message listing the kinds. */
int plt_topo_parse_kind(const char *name, plt_topo_kind_t *kind, char *err, size_t errlen);

/* Parses the size of `kind` into size[]: "ROWSxCOLS" (mesh, torus), "D" (hypercube), "N" (switch), "K:L" (fattree),
 * "G:C:R:N" (dragonfly: G <= R, as SimGrid's DragonflyZone attaches group g's link to the router of blade g).
 * 0, or SIM_EINVAL with a message saying the expected form and the limits. */
int plt_topo_parse_size(plt_topo_kind_t kind, const char *text, int size[4], char *err, size_t errlen);

/* Checks the parameters (each value a positive number with a SimGrid unit: speed f kf Mf Gf Tf; bandwidth Bps kBps
 * MBps GBps bps kbps Mbps Gbps; latency s ms us ns, zero allowed) and fills in the preset's for those not given.
 * 0, or SIM_EINVAL with a message naming the parameter. */
int plt_topo_resolve(plt_topo_t *topo, char *err, size_t errlen);

/* The number of hosts of a parsed topology; they are generated in natural name order (n0, n1, ... or n<row>-<col>). */
size_t plt_topo_hosts(const plt_topo_t *topo);

/* Whether `kind` can be written native (plt_topo_t.native): meshes, tori and fat trees. */
int plt_topo_has_native(plt_topo_kind_t kind);

/* The links of a dragonfly (SimGrid's DragonflyZone, one link per pair at each level): one per host to its router,
 * green between the routers of a chassis, black between the same blade of a group's chassis, blue between groups. */
size_t plt_topo_dragonfly_links(const plt_topo_t *topo);

/* Switches of a fat tree at level m (1 = the switches hosts hang from, L = the root). */
size_t plt_topo_fat_switches(const plt_topo_t *topo, int m);

/* The bandwidth of a link `fat` times the resolved topology's, as SimGrid text into `text`: the given text itself when
 * fat is 1, else the number times fat ("%.10g") in the given unit. */
void plt_topo_link_bandwidth(const plt_topo_t *topo, double fat, char *text, size_t len);

#endif
