/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Topology generators' writer: a topology's graph (plt_topo_graph.c) written as a SimGrid platform with libxml2's
 * xmlTextWriter (one zone, shortest-path routing over host-to-neighbour routes, as platforms/t800-mesh-128.xml). */
#include "plt_topo.h"
#include "plt_topo_graph.h"
#include "sim_error.h"
#include "sim_prop.h"

#include <libxml/xmlwriter.h>
#include <stdlib.h>

/* Given parameters only: SimGrid's CM02 model takes latency and bandwidth at face value (no LV08 factors). */
static const char *const plain_config[] = {"network/model", "CM02", NULL};

/* A writer that remembers the first failure, so that the generators read as the document they write. */
typedef struct writer {
  xmlTextWriterPtr w;
  int failed;
} writer_t;

static void start(writer_t *x, const char *element)
{
  x->failed |= xmlTextWriterStartElement(x->w, BAD_CAST element) < 0;
}

static void end(writer_t *x)
{
  x->failed |= xmlTextWriterEndElement(x->w) < 0;
}

static void attribute(writer_t *x, const char *name, const char *value)
{
  x->failed |= xmlTextWriterWriteAttribute(x->w, BAD_CAST name, BAD_CAST value) < 0;
}

static void prop(writer_t *x, const char *id, const char *value)
{
  start(x, "prop");
  attribute(x, "id", id);
  attribute(x, "value", value);
  end(x);
}

static void props(writer_t *x, const char *const *pairs)
{
  for (size_t i = 0; pairs && pairs[i]; i += 2)
    prop(x, pairs[i], pairs[i + 1]);
}

/* A preset's simrun properties, named by the table (sim_prop.h). */
static void sim_props(writer_t *x, const plt_topo_prop_t *list)
{
  for (size_t i = 0; list && list[i].value; i++)
    prop(x, sim_prop_name(list[i].id), list[i].value);
}

static void write_hosts(writer_t *x, const plt_topo_t *topo, const plt_topo_graph_t *g)
{
  char name[64];
  char number[32];
  int grid = topo->kind == PLT_TOPO_MESH || topo->kind == PLT_TOPO_TORUS;
  for (size_t i = 0; i < g->nodes; i++) {
    plt_topo_node_name(topo, g, i, name, sizeof name);
    start(x, i < g->hosts ? "host" : "router");
    attribute(x, "id", name);
    if (i < g->hosts)
      attribute(x, "speed", topo->speed);
    if (i < g->hosts && topo->preset)
      sim_props(x, topo->preset->host_props);
    for (int axis = 0; grid && i < g->hosts && axis < 2; axis++) {
      snprintf(number, sizeof number, "%zu", axis ? i % (size_t)topo->size[1] : i / (size_t)topo->size[1]);
      prop(x, sim_prop_name(axis ? SIM_PROP_COL : SIM_PROP_ROW), number);
    }
    end(x);
  }
}

/* The link of an edge is named after its ends: "l-n0-0-n0-1". */
static void link_name(const plt_topo_t *topo, const plt_topo_graph_t *g, const plt_topo_edge_t *e, char *name,
                      size_t len)
{
  char a[64];
  char b[64];
  plt_topo_node_name(topo, g, e->a, a, sizeof a);
  plt_topo_node_name(topo, g, e->b, b, sizeof b);
  snprintf(name, len, "l-%s-%s", a, b);
}

/* -1 when `topo` has no clusters (no preset with them, or a switch or fat tree); else, for edge e, whether it joins
 * two clusters (0 or 1; 0 for e NULL). Grids: blocks of side x side hosts; hypercubes: sub-cubes of side^2 hosts. */
static int crosses_clusters(const plt_topo_t *topo, const plt_topo_edge_t *e)
{
  size_t side = topo->preset ? (size_t)topo->preset->cluster_side : 0;
  int grid = topo->kind == PLT_TOPO_MESH || topo->kind == PLT_TOPO_TORUS;
  if (side == 0 || (!grid && topo->kind != PLT_TOPO_HYPERCUBE))
    return -1;
  if (!e)
    return 0;
  if (!grid)
    return e->a / (side * side) != e->b / (side * side);
  size_t cols = (size_t)topo->size[1];
  return e->a / cols / side != e->b / cols / side || e->a % cols / side != e->b % cols / side;
}

static void write_links(writer_t *x, const plt_topo_t *topo, const plt_topo_graph_t *g)
{
  char name[160];
  char bandwidth[64];
  for (size_t i = 0; i < g->nedges; i++) {
    const plt_topo_edge_t *e = &g->edges[i];
    link_name(topo, g, e, name, sizeof name);
    plt_topo_link_bandwidth(topo, e->fat, bandwidth, sizeof bandwidth);
    start(x, "link");
    attribute(x, "id", name);
    attribute(x, "bandwidth", bandwidth);
    attribute(x, "latency", topo->latency);
    attribute(x, "sharing_policy", "SPLITDUPLEX");
    if (crosses_clusters(topo, e) > 0)
      prop(x, sim_prop_name(SIM_PROP_EXTRA_C004_STAGES), topo->preset->cross_stages);
    end(x);
  }
}

/* One route per link, between its ends; the routing computes the rest. Each link is split-duplex: UP from a to b,
 * and SimGrid's symmetric route uses DOWN from b to a. */
static void write_routes(writer_t *x, const plt_topo_t *topo, const plt_topo_graph_t *g)
{
  char a[64];
  char b[64];
  char name[160];
  for (size_t i = 0; i < g->nedges; i++) {
    const plt_topo_edge_t *e = &g->edges[i];
    plt_topo_node_name(topo, g, e->a, a, sizeof a);
    plt_topo_node_name(topo, g, e->b, b, sizeof b);
    link_name(topo, g, e, name, sizeof name);
    start(x, "route");
    attribute(x, "src", a);
    attribute(x, "dst", b);
    start(x, "link_ctn");
    attribute(x, "id", name);
    attribute(x, "direction", "UP");
    end(x);
    end(x);
  }
}

/* The topology as written on the command line, such as "mesh-16x8": the zone's id. */
static void topo_id(const plt_topo_t *topo, char *id, size_t len)
{
  static const char *const forms[] = {"mesh-%dx%d", "torus-%dx%d",   "hypercube-%d",
                                      "switch-%d",  "fattree-%d:%d", "dragonfly-%d:%d:%d:%d"};
  snprintf(id, len, forms[topo->kind], topo->size[0], topo->size[1], topo->size[2], topo->size[3]);
}

/* How a file's routes are found, for its comment. */
static const char *routing_note(const plt_topo_t *topo, const plt_topo_graph_t *g)
{
  if (topo->kind == PLT_TOPO_DRAGONFLY)
    return "SimGrid's own (a DRAGONFLY cluster: its routers and links are built by SimGrid,\n"
           "  minimal routes found from the hosts' coordinates)";
  if (topo->native)
    return topo->kind == PLT_TOPO_FATTREE
               ? "built by simrun when it loads this file (src/sim/sim_grid.h),\n"
                 "  named as in the explicit file, routed up to the lowest common switch without a shortest-path\n"
                 "  search (SimGrid alone sees no hosts here)"
               : "built by simrun when it loads this file (src/sim/sim_grid.h),\n"
                 "  named as in the explicit file, routed along the row then the column "
                 "without a shortest-path search\n"
                 "  (SimGrid alone sees no hosts here)";
  return g->nodes > 512 ? "shortest paths over one route per link (DijkstraCache)"
                        : "shortest paths over one route per link (Floyd)";
}

static void write_comment(writer_t *x, const plt_topo_t *topo, const plt_topo_graph_t *g)
{
  static const char *const shapes[] = {"2D mesh", "2D torus", "hypercube", "single switch", "fat tree", "dragonfly"};
  char id[64];
  char text[1024];
  topo_id(topo, id, sizeof id);
  snprintf(
      text, sizeof text,
      "\n  Generated by simrun platform (src/platform/plt_topo.c): %s, a %s of %zu hosts and %zu links; routes are\n"
      "  %s. Hosts: speed %s. Links: bandwidth %s, latency %s,\n"
      "  split-duplex.\n  Preset: %s.\n",
      id, shapes[topo->kind], g->hosts, g->nedges, routing_note(topo, g), topo->speed, topo->bandwidth, topo->latency,
      topo->preset ? topo->preset->summary : "none, parameters given on the command line");
  x->failed |= xmlTextWriterWriteComment(x->w, BAD_CAST text) < 0;
}

/* Opens the platform's root zone, named after the topology (its id into `id`), with the preset's machine properties. */
static void start_root_zone(writer_t *x, const plt_topo_t *topo, const char *routing, char *id, size_t len)
{
  topo_id(topo, id, len);
  start(x, "zone");
  attribute(x, "id", id);
  attribute(x, "routing", routing);
  sim_props(x, topo->preset ? topo->preset->props : NULL);
}

/* The native form of a mesh, torus or fat tree: no hosts, links or routes, but a zone whose properties describe them,
 * which simrun fills at load time with a zone of its own whose routes are arithmetic (src/sim/sim_grid.h). */
static void write_native(writer_t *x, const plt_topo_t *topo)
{
  char id[64];
  start_root_zone(x, topo, "None", id, sizeof id);
  char grid[96];
  snprintf(grid, sizeof grid, "%s-hosts", id);
  start(x, "zone");
  attribute(x, "id", grid);
  attribute(x, "routing", "None");
  snprintf(grid, sizeof grid, topo->kind == PLT_TOPO_FATTREE ? "%s %d:%d" : "%s %dx%d", plt_topo_names[topo->kind],
           topo->size[0], topo->size[1]);
  prop(x, sim_prop_name(SIM_PROP_GRID), grid);
  prop(x, sim_prop_name(SIM_PROP_GRID_SPEED), topo->speed);
  prop(x, sim_prop_name(SIM_PROP_GRID_BANDWIDTH), topo->bandwidth);
  prop(x, sim_prop_name(SIM_PROP_GRID_LATENCY), topo->latency);
  sim_props(x, topo->preset ? topo->preset->host_props : NULL);
  end(x);
  end(x);
}

/* A dragonfly: SimGrid's own cluster (DragonflyZone: routers, links and routes built by SimGrid from topo_parameters
 * "G,1;C,1;R,1;N", one link per pair at each level), hosts n0 ... n<G*C*R*N - 1> in group, chassis, router, host
 * order, inside a root zone with the preset's machine properties; the cluster's own are the hosts'. */
static void write_dragonfly(writer_t *x, const plt_topo_t *topo, size_t hosts)
{
  char id[64];
  char text[96];
  start_root_zone(x, topo, "Full", id, sizeof id);
  start(x, "cluster");
  snprintf(text, sizeof text, "%s-hosts", id);
  attribute(x, "id", text);
  attribute(x, "prefix", "n");
  attribute(x, "suffix", "");
  snprintf(text, sizeof text, "0-%zu", hosts - 1);
  attribute(x, "radical", text);
  attribute(x, "speed", topo->speed);
  attribute(x, "bw", topo->bandwidth);
  attribute(x, "lat", topo->latency);
  attribute(x, "sharing_policy", "SPLITDUPLEX");
  attribute(x, "topology", "DRAGONFLY");
  snprintf(text, sizeof text, "%d,1;%d,1;%d,1;%d", topo->size[0], topo->size[1], topo->size[2], topo->size[3]);
  attribute(x, "topo_parameters", text);
  sim_props(x, topo->preset ? topo->preset->host_props : NULL);
  end(x);
  end(x);
}

static void write_platform(writer_t *x, const plt_topo_t *topo, const plt_topo_graph_t *g)
{
  x->failed |= xmlTextWriterStartDocument(x->w, "1.0", NULL, NULL) < 0;
  x->failed |=
      xmlTextWriterWriteDTD(x->w, BAD_CAST "platform", NULL, BAD_CAST "https://simgrid.org/simgrid.dtd", NULL) < 0;
  /* indenting only from here keeps the DOCTYPE on one line */
  x->failed |= xmlTextWriterWriteRaw(x->w, BAD_CAST "\n") < 0 || xmlTextWriterSetIndent(x->w, 1) < 0 ||
               xmlTextWriterSetIndentString(x->w, BAD_CAST "  ") < 0;
  write_comment(x, topo, g);
  start(x, "platform");
  attribute(x, "version", "4.1");
  start(x, "config");
  props(x, topo->preset ? topo->preset->config : plain_config);
  end(x);
  if (topo->kind == PLT_TOPO_DRAGONFLY) {
    write_dragonfly(x, topo, g->hosts);
  } else if (topo->native) {
    write_native(x, topo);
  } else {
    char id[64];
    start_root_zone(x, topo, g->nodes > 512 ? "DijkstraCache" : "Floyd", id, sizeof id);
    sim_props(x, topo->preset && crosses_clusters(topo, NULL) >= 0 ? topo->preset->cluster_props : NULL);
    if (topo->kind == PLT_TOPO_HYPERCUBE) /* ranks in Gray-code order: neighbouring ranks one link apart (sim_map.h) */
      prop(x, sim_prop_name(SIM_PROP_PLACEMENT), sim_prop_row(SIM_PROP_PLACEMENT)->words);
    write_hosts(x, topo, g);
    write_links(x, topo, g);
    write_routes(x, topo, g);
    end(x);
  }
  end(x);
  x->failed |= xmlTextWriterEndDocument(x->w) < 0;
}

int plt_topo_write(const plt_topo_t *topo, FILE *out, char *err, size_t errlen)
{
  plt_topo_graph_t g;
  if (plt_topo_graph_build(topo, &g) != 0) {
    snprintf(err, errlen, "%s", bas_strerror(SIM_ENOMEM));
    return SIM_ENOMEM;
  }
  xmlOutputBufferPtr buffer = xmlOutputBufferCreateFile(out, NULL);
  writer_t x = {.w = buffer ? xmlNewTextWriter(buffer) : NULL};
  if (!x.w) {
    xmlOutputBufferClose(buffer);
    free(g.edges);
    snprintf(err, errlen, "%s", bas_strerror(SIM_ENOMEM));
    return SIM_ENOMEM;
  }
  write_platform(&x, topo, &g);
  xmlFreeTextWriter(x.w); /* flushes and frees the buffer; `out` stays open */
  free(g.edges);
  if (x.failed || fflush(out) != 0 || ferror(out)) {
    snprintf(err, errlen, "writing the platform failed");
    return SIM_EIO;
  }
  return 0;
}
