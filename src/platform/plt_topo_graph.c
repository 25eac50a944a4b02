/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The graph of a generated platform: its hosts, switches and links, per topology (mesh, torus, hypercube, switch, fat
 * tree), and their names (plt_topo_graph.h). */
#include "plt_topo_graph.h"
#include "sim_error.h"

#include <stdio.h>
#include <stdlib.h>

/* Appends a link when edges is allocated; counts it in any case. */
static void add_edge(plt_topo_graph_t *g, size_t a, size_t b, double fat)
{
  if (g->edges)
    g->edges[g->nedges] = (plt_topo_edge_t){.a = a, .b = b, .fat = fat};
  g->nedges++;
}

/* Mesh links in the order of platforms/t800-mesh-128.xml (per host, right then down), then the torus' wrap-arounds. */
static void grid_edges(const plt_topo_t *topo, plt_topo_graph_t *g)
{
  size_t rows = (size_t)topo->size[0];
  size_t cols = (size_t)topo->size[1];
  for (size_t i = 0; i < g->hosts; i++) {
    if (i % cols + 1 < cols)
      add_edge(g, i, i + 1, 1);
    if (i / cols + 1 < rows)
      add_edge(g, i, i + cols, 1);
  }
  if (topo->kind != PLT_TOPO_TORUS)
    return;
  for (size_t r = 0; cols > 2 && r < rows; r++)
    add_edge(g, r * cols + cols - 1, r * cols, 1);
  for (size_t c = 0; rows > 2 && c < cols; c++)
    add_edge(g, (rows - 1) * cols + c, c, 1);
}

/* Fat tree: host i under level-1 switch i / K; level-m switch j under level-(m+1) switch j / K, with K^m times the
 * bandwidth, so that every level carries its subtree's traffic (Leiserson's fat tree). */
static void fat_tree_edges(const plt_topo_t *topo, plt_topo_graph_t *g)
{
  size_t k = (size_t)topo->size[0];
  size_t first = g->hosts; /* the first switch of the current level */
  double fat = 1;          /* K^m: exact, as K^m < K^L <= PLT_TOPO_MAX_NATIVE_HOSTS */
  for (size_t i = 0; i < g->hosts; i++)
    add_edge(g, i, first + i / k, 1);
  for (int m = 1; m < topo->size[1]; m++) {
    size_t count = plt_topo_fat_switches(topo, m);
    fat *= (double)k;
    for (size_t j = 0; j < count; j++)
      add_edge(g, first + j, first + count + j / k, fat);
    first += count;
  }
}

/* Fills g's links (g->edges NULL: counts them only). */
static void build_edges(const plt_topo_t *topo, plt_topo_graph_t *g)
{
  g->nedges = 0;
  if (topo->kind == PLT_TOPO_MESH || topo->kind == PLT_TOPO_TORUS) {
    grid_edges(topo, g);
  } else if (topo->kind == PLT_TOPO_HYPERCUBE) {
    for (size_t i = 0; i < g->hosts; i++)
      for (int bit = 0; bit < topo->size[0]; bit++)
        if ((i ^ ((size_t)1 << bit)) > i)
          add_edge(g, i, i ^ ((size_t)1 << bit), 1);
  } else if (topo->kind == PLT_TOPO_SWITCH) {
    for (size_t i = 0; i < g->hosts; i++)
      add_edge(g, i, g->hosts, 1);
  } else {
    fat_tree_edges(topo, g);
  }
}

int plt_topo_graph_build(const plt_topo_t *topo, plt_topo_graph_t *g)
{
  *g = (plt_topo_graph_t){.hosts = plt_topo_hosts(topo)};
  if (topo->kind == PLT_TOPO_DRAGONFLY) { /* SimGrid builds its routers and links (plt_topo.c writes a cluster) */
    g->nodes = g->hosts;
    g->nedges = plt_topo_dragonfly_links(topo);
    return 0;
  }
  g->nodes = g->hosts + (topo->kind == PLT_TOPO_SWITCH);
  for (int m = 1; topo->kind == PLT_TOPO_FATTREE && m <= topo->size[1]; m++)
    g->nodes += plt_topo_fat_switches(topo, m);
  build_edges(topo, g);
  g->edges = malloc(g->nedges * sizeof *g->edges);
  if (!g->edges)
    return SIM_ENOMEM;
  build_edges(topo, g);
  return 0;
}

/* Node names: hosts n<row>-<col> on grids and n<i> elsewhere; the switch "switch"; fat-tree switches s<level>-<j>. */
void plt_topo_node_name(const plt_topo_t *topo, const plt_topo_graph_t *g, size_t node, char *name, size_t len)
{
  size_t cols = (size_t)topo->size[1];
  if (node < g->hosts && (topo->kind == PLT_TOPO_MESH || topo->kind == PLT_TOPO_TORUS)) {
    snprintf(name, len, "n%zu-%zu", node / cols, node % cols);
  } else if (node < g->hosts) {
    snprintf(name, len, "n%zu", node);
  } else if (topo->kind == PLT_TOPO_SWITCH) {
    snprintf(name, len, "switch");
  } else {
    size_t j = node - g->hosts;
    int m = 1;
    for (; j >= plt_topo_fat_switches(topo, m); m++)
      j -= plt_topo_fat_switches(topo, m);
    snprintf(name, len, "s%d-%zu", m, j);
  }
}
