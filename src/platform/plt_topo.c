/* Topology generators: a graph of hosts, switches and links per topology, written as a SimGrid platform with libxml2's
 * xmlTextWriter (one zone, shortest-path routing over host-to-neighbour routes, as platforms/t800-mesh-128.xml). */
#include "plt_topo.h"
#include "sim_cluster.h"
#include "sim_error.h"

#include <libxml/xmlwriter.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const plt_topo_names[] = {"mesh", "torus", "hypercube", "switch", "fattree", NULL};

/* The T800 preset copies platforms/t800-mesh-128.xml, where each value's source in seed 001 is given (the
 * characterisation, simrun:clock-hz and simrun:cycles-*, included: docs/machines.md). */
static const char *const t800_config[] = {"network/model", "CM02", "network/crosstraffic", "0", NULL};
static const char *const t800_props[] = {"simrun:comm-model",
                                         "piecewise",
                                         "simrun:comm-packet-bytes",
                                         "120",
                                         "simrun:comm-small-us",
                                         "51.1 0.27 8.86 0.68",
                                         "simrun:comm-large-us",
                                         "-81.5 1.33 93.04 0.05",
                                         "simrun:link-init-us",
                                         "1270",
                                         "simrun:io-input-us",
                                         "642.16 3.73",
                                         "simrun:io-output-us",
                                         "1583.73 2.2",
                                         "simrun:clock-hz",
                                         "25e6",
                                         "simrun:cycles-cpu",
                                         "20.505",
                                         "simrun:cycles-flop",
                                         "19.2175",
                                         "simrun:cycles-intmem",
                                         "10.9635",
                                         "simrun:cycles-extmem",
                                         "34.42766666666667",
                                         NULL};

/* The SuperCluster's clusters, as in platforms/t800-mesh-128.xml (docs/t800.md): 4x4 blocks of transputers; a link
 * between two of them passes 2 more INMOS C004 stages, 1.75 bit periods each way, on 20 Mbit/s links. */
static const char *const t800_cluster_props[] = {"simrun:c004-delay-bits", "1.75", "simrun:link-bit-rate", "20e6",
                                                 NULL};

/* icluster copies platforms/icluster-fe-32.xml (seed 003; Fast Ethernet through one switch; the Pentium III's
 * characterisation, whose sources are given there): the message latency of
 * 0.5 + 123.54 us, split there into the up and down links of a port, is split evenly here over a route's two links. */
static const char *const cluster_config[] = {"network/model", "CM02", "network/crosstraffic", "0", NULL};
static const char *const icluster_host_props[] = {"simrun:memory-bytes",
                                                  "268435456",
                                                  "simrun:clock-hz",
                                                  "733e6",
                                                  "simrun:cycles-cpu",
                                                  "0.5",
                                                  "simrun:cycles-flop",
                                                  "1",
                                                  "simrun:cycles-intmem",
                                                  "1",
                                                  "simrun:cycles-extmem",
                                                  "5.5",
                                                  NULL};

/* LAM/MPI's tcp short-message (eager) limit, as platforms/icluster-fe-32.xml assumes and sources it. */
static const char *const icluster_props[] = {"simrun:eager-bytes", "65536", NULL};

/* ncp2 copies the nodes (the PowerPC 604's characterisation included) and Myrinet links of
 * platforms/ncp2-myrinet-8.xml (seed 002); its protocol controllers and
 * PCI buses, which only the DSM model uses, are not generated. */
static const char *const ncp2_host_props[] = {"simrun:memory-bytes",
                                              "33554432",
                                              "simrun:l2-bytes",
                                              "262144",
                                              "simrun:cycles-cpu",
                                              "0.5",
                                              "simrun:cycles-flop",
                                              "1",
                                              "simrun:cycles-intmem",
                                              "1",
                                              "simrun:cycles-extmem",
                                              "1.5",
                                              NULL};

static const plt_topo_preset_t presets[] = {
    {.name = "t800",
     .summary =
         "t800, the Parsytec SuperCluster of platforms/t800-mesh-128.xml (seed 001, Zemerly et al.\n"
         "  1995): 25 MHz T800 hosts, links of 1 / 1.33 us per byte; the message time of eq. 4 with Table 2, link\n"
         "  initialisation (eq. 3) and host I/O (eqs. 5-6) are root-zone properties; clusters of 16 hosts (4x4\n"
         "  blocks of meshes and tori, sub-cubes of hypercubes; none through a switch or fat tree): a link between\n"
         "  two passes 2 more C004 crossbars of 1.75 bit periods each way at 20 Mbit/s (docs/t800.md)",
     .speed = "25Mf",
     .bandwidth = "751879.7Bps",
     .latency = "1us",
     .config = t800_config,
     .props = t800_props,
     .cluster_side = 4,
     .cross_stages = "2",
     .cluster_props = t800_cluster_props},
    {.name = "t800-flat",
     .summary =
         "t800-flat, the t800 preset without its clusters: 25 MHz T800 hosts, links of 1 / 1.33 us per byte,\n"
         "  the message time of eq. 4 with Table 2, link initialisation and host I/O of seed 001, and every link\n"
         "  costs what a link inside a SuperCluster cluster does: a what-if that compares shapes, or the\n"
         "  machine without its C004 stages between clusters (docs/t800.md)",
     .speed = "25Mf",
     .bandwidth = "751879.7Bps",
     .latency = "1us",
     .config = t800_config,
     .props = t800_props},
    {.name = "icluster",
     .summary = "icluster, the Pentium III nodes and Fast Ethernet of platforms/icluster-fe-32.xml (seed 003,\n"
                "  Caron and Suter 2002): 733 Mflop/s hosts with 256 MiB, links of 100 Mbit/s less framing\n"
                "  (11866059.8 B/s); the 124.04 us per message through the store-and-forward switch is split evenly\n"
                "  over the two links of a host-switch-host route, 62.02 us each; sends of at most 64 KiB are eager",
     .speed = "733Mf",
     .bandwidth = "11866059.8Bps",
     .latency = "62.02us",
     .config = cluster_config,
     .props = icluster_props,
     .host_props = icluster_host_props},
    {.name = "ncp2",
     .summary = "ncp2, the PowerPC 604 nodes and Myrinet links of platforms/ncp2-myrinet-8.xml (seed 002, Pereira et\n"
                "  al.): 100 MHz hosts with 32 MB and 256 KB of L2, links of 160 MB/s and 0.25 us (the protocol\n"
                "  controllers and PCI buses of the DSM model are not generated)",
     .speed = "100Mf",
     .bandwidth = "160MBps",
     .latency = "0.25us",
     .config = cluster_config,
     .host_props = ncp2_host_props},
};

/* Given parameters only: SimGrid's CM02 model takes latency and bandwidth at face value (no LV08 factors). */
static const char *const plain_config[] = {"network/model", "CM02", NULL};

#define NPRESETS (sizeof presets / sizeof presets[0])

const plt_topo_preset_t *plt_topo_preset(const char *name)
{
  for (size_t i = 0; i < NPRESETS; i++)
    if (strcmp(presets[i].name, name) == 0)
      return &presets[i];
  return NULL;
}

const char *plt_topo_preset_names(void)
{
  static char names[256];
  if (names[0])
    return names;
  for (size_t i = 0; i < NPRESETS; i++)
    snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "", presets[i].name);
  return names;
}

int plt_topo_parse_kind(const char *name, plt_topo_kind_t *kind, char *err, size_t errlen)
{
  for (int k = 0; k < PLT_TOPO_COUNT; k++)
    if (strcmp(name, plt_topo_names[k]) == 0) {
      *kind = (plt_topo_kind_t)k;
      return 0;
    }
  snprintf(err, errlen, "unknown topology '%s'; choose one of: mesh, torus, hypercube, switch, fattree", name);
  return SIM_EINVAL;
}

/* A whole number from 1 to PLT_TOPO_MAX_HOSTS at *text, up to `stop` (or the end); advances *text past it. -1 when
 * there is none. */
static long whole(const char **text, char stop)
{
  long value = 0;
  const char *c = *text;
  for (; *c >= '0' && *c <= '9' && value <= PLT_TOPO_MAX_HOSTS; c++)
    value = 10 * value + (*c - '0');
  if (c == *text || *c != stop || value < 1 || value > PLT_TOPO_MAX_HOSTS)
    return -1;
  *text = *c ? c + 1 : c;
  return value;
}

/* base^exp, or PLT_TOPO_MAX_HOSTS + 1 when larger. */
static long power(long base, long exp)
{
  long result = 1;
  for (long i = 0; i < exp && result <= PLT_TOPO_MAX_HOSTS; i++)
    result *= base;
  return result <= PLT_TOPO_MAX_HOSTS ? result : PLT_TOPO_MAX_HOSTS + 1;
}

int plt_topo_parse_size(plt_topo_kind_t kind, const char *text, int size[2], char *err, size_t errlen)
{
  static const char *const forms[] = {"ROWSxCOLS, such as 16x8", "ROWSxCOLS, such as 16x8",
                                      "a dimension D from 1 to 12 (2^D hosts), such as 7", "a host count N, such as 32",
                                      "K:L, a K-ary tree of L levels (K^L hosts, K >= 2), such as 4:3"};
  const char *c = text;
  long a = whole(&c, kind == PLT_TOPO_MESH || kind == PLT_TOPO_TORUS ? 'x' : kind == PLT_TOPO_FATTREE ? ':' : '\0');
  long b = kind == PLT_TOPO_MESH || kind == PLT_TOPO_TORUS || kind == PLT_TOPO_FATTREE ? whole(&c, '\0') : 1;
  long hosts = kind == PLT_TOPO_HYPERCUBE ? power(2, a) : kind == PLT_TOPO_FATTREE ? power(a, b) : a * b;
  int ok = a > 0 && b > 0 && hosts <= PLT_TOPO_MAX_HOSTS && (kind != PLT_TOPO_FATTREE || a >= 2);
  if (!ok) {
    snprintf(err, errlen, "%s size '%s': expected %s, with at most %d hosts", plt_topo_names[kind], text, forms[kind],
             PLT_TOPO_MAX_HOSTS);
    return SIM_EINVAL;
  }
  size[0] = (int)a;
  size[1] = (int)b;
  return 0;
}

/* Whether `text` is a number >= 0 (> 0 unless zero_ok) followed by exactly one of `units`; the number in *value. */
static int valued(const char *text, const char *const *units, int zero_ok, double *value, const char **unit)
{
  char *end = NULL;
  if (!((*text >= '0' && *text <= '9') || *text == '.'))
    return 0;
  *value = strtod(text, &end);
  if (end == text || !isfinite(*value) || (*value == 0 && !zero_ok))
    return 0;
  for (size_t i = 0; units[i]; i++)
    if (strcmp(end, units[i]) == 0) {
      *unit = units[i];
      return 1;
    }
  return 0;
}

static const char *const speed_units[] = {"f", "kf", "Mf", "Gf", "Tf", NULL};
/* SimGrid's bandwidth units (xbt/parse_units.cpp): bytes or bits per second, SI or IEC prefixes */
static const char *const bandwidth_units[] = {"Bps",   "kBps",  "MBps",  "GBps",  "TBps", "KiBps", "MiBps",
                                              "GiBps", "TiBps", "bps",   "kbps",  "Mbps", "Gbps",  "Tbps",
                                              "Kibps", "Mibps", "Gibps", "Tibps", NULL};
static const char *const latency_units[] = {"s", "ms", "us", "ns", NULL};

/* Checks parameter `name` = `text` against its units; 0 or SIM_EINVAL with a message. */
static int check_param(const char *name, const char *text, const char *const *units, int zero_ok, const char *example,
                       char *err, size_t errlen)
{
  double value;
  const char *unit;
  if (valued(text, units, zero_ok, &value, &unit))
    return 0;
  char list[256] = "";
  for (size_t i = 0; units[i]; i++)
    snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? " " : "", units[i]);
  snprintf(err, errlen, "--%s '%s': expected a %s number with one of the units %s, such as %s", name, text,
           zero_ok ? "non-negative" : "positive", list, example);
  return SIM_EINVAL;
}

int plt_topo_resolve(plt_topo_t *topo, char *err, size_t errlen)
{
  const plt_topo_preset_t *preset = topo->preset;
  topo->speed = topo->speed ? topo->speed : preset ? preset->speed : NULL;
  topo->bandwidth = topo->bandwidth ? topo->bandwidth : preset ? preset->bandwidth : NULL;
  topo->latency = topo->latency ? topo->latency : preset ? preset->latency : NULL;
  if (!topo->speed || !topo->bandwidth || !topo->latency) {
    snprintf(err, errlen, "without --preset, give --speed, --bandwidth and --latency (presets: %s)",
             plt_topo_preset_names());
    return SIM_EINVAL;
  }
  int rc = check_param("speed", topo->speed, speed_units, 0, "25Mf", err, errlen);
  rc = rc ? rc : check_param("bandwidth", topo->bandwidth, bandwidth_units, 0, "125MBps", err, errlen);
  if (rc == 0 && topo->native && !plt_topo_has_native(topo->kind)) {
    snprintf(err, errlen,
             "--routing native: %s routes are explicit only; native routing is for mesh, torus and fattree",
             plt_topo_names[topo->kind]);
    return SIM_EINVAL;
  }
  if (rc == 0 && topo->native && preset && preset->cluster_props) {
    snprintf(err, errlen,
             "--routing native with --preset %s: the crossbar stages between its clusters are properties of the "
             "explicit links, which a native zone does not have; use --preset %s-flat or explicit routing",
             preset->name, preset->name);
    return SIM_EINVAL;
  }
  return rc ? rc : check_param("latency", topo->latency, latency_units, 1, "50us", err, errlen);
}

/* Switches of a fat tree at level m (1 = the switches hosts hang from, L = the root). */
static size_t fat_switches(const plt_topo_t *topo, int m)
{
  return (size_t)power(topo->size[0], topo->size[1] - m);
}

size_t plt_topo_hosts(const plt_topo_t *topo)
{
  switch (topo->kind) {
  case PLT_TOPO_HYPERCUBE:
    return (size_t)1 << topo->size[0];
  case PLT_TOPO_FATTREE:
    return (size_t)power(topo->size[0], topo->size[1]);
  default:
    return (size_t)topo->size[0] * (size_t)topo->size[1];
  }
}

/* A link between nodes a and b (hosts first, then switches), `fat` times the base bandwidth. */
typedef struct edge {
  size_t a;
  size_t b;
  double fat;
} edge_t;

typedef struct graph {
  size_t hosts;
  size_t nodes;
  edge_t *edges;
  size_t nedges;
} graph_t;

/* Appends a link when edges is allocated; counts it in any case. */
static void add_edge(graph_t *g, size_t a, size_t b, double fat)
{
  if (g->edges)
    g->edges[g->nedges] = (edge_t){.a = a, .b = b, .fat = fat};
  g->nedges++;
}

/* Mesh links in the order of platforms/t800-mesh-128.xml (per host, right then down), then the torus' wrap-arounds. */
static void grid_edges(const plt_topo_t *topo, graph_t *g)
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
static void fat_tree_edges(const plt_topo_t *topo, graph_t *g)
{
  size_t k = (size_t)topo->size[0];
  size_t first = g->hosts; /* the first switch of the current level */
  for (size_t i = 0; i < g->hosts; i++)
    add_edge(g, i, first + i / k, 1);
  for (int m = 1; m < topo->size[1]; m++) {
    size_t count = fat_switches(topo, m);
    for (size_t j = 0; j < count; j++)
      add_edge(g, first + j, first + count + j / k, (double)power((long)k, m));
    first += count;
  }
}

/* Fills g's links (g->edges NULL: counts them only). */
static void build_edges(const plt_topo_t *topo, graph_t *g)
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

static int build_graph(const plt_topo_t *topo, graph_t *g)
{
  *g = (graph_t){.hosts = plt_topo_hosts(topo)};
  g->nodes = g->hosts + (topo->kind == PLT_TOPO_SWITCH);
  for (int m = 1; topo->kind == PLT_TOPO_FATTREE && m <= topo->size[1]; m++)
    g->nodes += fat_switches(topo, m);
  build_edges(topo, g);
  g->edges = malloc(g->nedges * sizeof *g->edges);
  if (!g->edges)
    return SIM_ENOMEM;
  build_edges(topo, g);
  return 0;
}

/* Node names: hosts n<row>-<col> on grids and n<i> elsewhere; the switch "switch"; fat-tree switches s<level>-<j>. */
static void node_name(const plt_topo_t *topo, const graph_t *g, size_t node, char *name, size_t len)
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
    for (; j >= fat_switches(topo, m); m++)
      j -= fat_switches(topo, m);
    snprintf(name, len, "s%d-%zu", m, j);
  }
}

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

static void write_hosts(writer_t *x, const plt_topo_t *topo, const graph_t *g)
{
  char name[64];
  char number[32];
  int grid = topo->kind == PLT_TOPO_MESH || topo->kind == PLT_TOPO_TORUS;
  for (size_t i = 0; i < g->nodes; i++) {
    node_name(topo, g, i, name, sizeof name);
    start(x, i < g->hosts ? "host" : "router");
    attribute(x, "id", name);
    if (i < g->hosts)
      attribute(x, "speed", topo->speed);
    if (i < g->hosts && topo->preset)
      props(x, topo->preset->host_props);
    for (int axis = 0; grid && i < g->hosts && axis < 2; axis++) {
      snprintf(number, sizeof number, "%zu", axis ? i % (size_t)topo->size[1] : i / (size_t)topo->size[1]);
      prop(x, axis ? "simrun:col" : "simrun:row", number);
    }
    end(x);
  }
}

/* The link of an edge is named after its ends: "l-n0-0-n0-1". */
static void link_name(const plt_topo_t *topo, const graph_t *g, const edge_t *e, char *name, size_t len)
{
  char a[64];
  char b[64];
  node_name(topo, g, e->a, a, sizeof a);
  node_name(topo, g, e->b, b, sizeof b);
  snprintf(name, len, "l-%s-%s", a, b);
}

/* -1 when `topo` has no clusters (no preset with them, or a switch or fat tree); else, for edge e, whether it joins
 * two clusters (0 or 1; 0 for e NULL). Grids: blocks of side x side hosts; hypercubes: sub-cubes of side^2 hosts. */
static int crosses_clusters(const plt_topo_t *topo, const edge_t *e)
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

static void write_links(writer_t *x, const plt_topo_t *topo, const graph_t *g)
{
  char name[160];
  char bandwidth[64];
  double base = 0;
  const char *unit = NULL;
  valued(topo->bandwidth, bandwidth_units, 0, &base, &unit);
  for (size_t i = 0; i < g->nedges; i++) {
    const edge_t *e = &g->edges[i];
    link_name(topo, g, e, name, sizeof name);
    if (e->fat == 1)
      snprintf(bandwidth, sizeof bandwidth, "%s", topo->bandwidth);
    else
      snprintf(bandwidth, sizeof bandwidth, "%.10g%s", base * e->fat, unit);
    start(x, "link");
    attribute(x, "id", name);
    attribute(x, "bandwidth", bandwidth);
    attribute(x, "latency", topo->latency);
    attribute(x, "sharing_policy", "SPLITDUPLEX");
    if (crosses_clusters(topo, e) > 0)
      prop(x, SIM_CLUSTER_STAGES_PROP, topo->preset->cross_stages);
    end(x);
  }
}

/* One route per link, between its ends; the routing computes the rest. Each link is split-duplex: UP from a to b,
 * and SimGrid's symmetric route uses DOWN from b to a. */
static void write_routes(writer_t *x, const plt_topo_t *topo, const graph_t *g)
{
  char a[64];
  char b[64];
  char name[160];
  for (size_t i = 0; i < g->nedges; i++) {
    const edge_t *e = &g->edges[i];
    node_name(topo, g, e->a, a, sizeof a);
    node_name(topo, g, e->b, b, sizeof b);
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
  static const char *const forms[] = {"mesh-%dx%d", "torus-%dx%d", "hypercube-%d", "switch-%d", "fattree-%d:%d"};
  snprintf(id, len, forms[topo->kind], topo->size[0], topo->size[1]);
}

/* How a file's routes are found, for its comment. */
static const char *routing_note(const plt_topo_t *topo, const graph_t *g)
{
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

static void write_comment(writer_t *x, const plt_topo_t *topo, const graph_t *g)
{
  static const char *const shapes[] = {"2D mesh", "2D torus", "hypercube", "single switch", "fat tree"};
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

/* The native form of a mesh, torus or fat tree: no hosts, links or routes, but a zone whose properties describe them,
 * which simrun fills at load time with a zone of its own whose routes are arithmetic (src/sim/sim_grid.h). */
static void write_native(writer_t *x, const plt_topo_t *topo)
{
  char id[64];
  topo_id(topo, id, sizeof id);
  start(x, "zone");
  attribute(x, "id", id);
  attribute(x, "routing", "None");
  props(x, topo->preset ? topo->preset->props : NULL);
  char grid[96];
  snprintf(grid, sizeof grid, "%s-hosts", id);
  start(x, "zone");
  attribute(x, "id", grid);
  attribute(x, "routing", "None");
  snprintf(grid, sizeof grid, topo->kind == PLT_TOPO_FATTREE ? "%s %d:%d" : "%s %dx%d", plt_topo_names[topo->kind],
           topo->size[0], topo->size[1]);
  prop(x, "simrun:grid", grid);
  prop(x, "simrun:grid-speed", topo->speed);
  prop(x, "simrun:grid-bandwidth", topo->bandwidth);
  prop(x, "simrun:grid-latency", topo->latency);
  props(x, topo->preset ? topo->preset->host_props : NULL);
  end(x);
  end(x);
}

static void write_platform(writer_t *x, const plt_topo_t *topo, const graph_t *g)
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
  if (topo->native) {
    write_native(x, topo);
  } else {
    char id[64];
    topo_id(topo, id, sizeof id);
    start(x, "zone");
    attribute(x, "id", id);
    attribute(x, "routing", g->nodes > 512 ? "DijkstraCache" : "Floyd");
    props(x, topo->preset ? topo->preset->props : NULL);
    props(x, topo->preset && crosses_clusters(topo, NULL) >= 0 ? topo->preset->cluster_props : NULL);
    if (topo->kind == PLT_TOPO_HYPERCUBE) /* ranks in Gray-code order: neighbouring ranks one link apart (sim_map.h) */
      prop(x, "simrun:placement", "gray");
    write_hosts(x, topo, g);
    write_links(x, topo, g);
    write_routes(x, topo, g);
    end(x);
  }
  end(x);
  x->failed |= xmlTextWriterEndDocument(x->w) < 0;
}

int plt_topo_has_native(plt_topo_kind_t kind)
{
  return kind == PLT_TOPO_MESH || kind == PLT_TOPO_TORUS || kind == PLT_TOPO_FATTREE;
}

int plt_topo_write(const plt_topo_t *topo, FILE *out, char *err, size_t errlen)
{
  graph_t g;
  if (build_graph(topo, &g) != 0) {
    snprintf(err, errlen, "%s", sim_strerror(SIM_ENOMEM));
    return SIM_ENOMEM;
  }
  xmlOutputBufferPtr buffer = xmlOutputBufferCreateFile(out, NULL);
  writer_t x = {.w = buffer ? xmlNewTextWriter(buffer) : NULL};
  if (!x.w) {
    xmlOutputBufferClose(buffer);
    free(g.edges);
    snprintf(err, errlen, "%s", sim_strerror(SIM_ENOMEM));
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
