/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to src/platform: the graph of a generated platform (plt_topo_graph.c), which the writer (plt_topo.c) turns
 * into SimGrid XML. */
#ifndef PLT_TOPO_GRAPH_H
#define PLT_TOPO_GRAPH_H

#include "plt_topo_param.h"

#include <stddef.h>

/* A link between nodes a and b (hosts first, then switches), `fat` times the base bandwidth. */
typedef struct plt_topo_edge {
  size_t a;
  size_t b;
  double fat;
} plt_topo_edge_t;

typedef struct plt_topo_graph {
  size_t hosts;
  size_t nodes;
  plt_topo_edge_t *edges;
  size_t nedges;
} plt_topo_graph_t;

/* The graph of a parsed topology into *g: hosts first (in natural name order), then switches; links in the order of
 * the file. 0, or SIM_ENOMEM. The caller frees g->edges. */
int plt_topo_graph_build(const plt_topo_t *topo, plt_topo_graph_t *g);

/* Node names: hosts n<row>-<col> on grids and n<i> elsewhere; the switch "switch"; fat-tree switches s<level>-<j>. */
void plt_topo_node_name(const plt_topo_t *topo, const plt_topo_graph_t *g, size_t node, char *name, size_t len);

#endif
