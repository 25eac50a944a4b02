/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Native grid zones (meshes, tori and fat trees): subclasses of SimGrid's NetZoneImpl whose routes are found by
 * arithmetic on the hosts' numbers, as SimGrid's own TorusZone does, instead of a shortest-path search over explicit
 * routes. */
#include "sim_grid.h"
#include "sim_error.h"
#include "sim_prop.h"

#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/Exception.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <xbt/parse_units.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace
{
namespace routing = simgrid::kernel::routing;

/* One physical link seen from host i: its UP direction, taken away from i, and its DOWN direction, taken back. */
struct Hop {
  simgrid::s4u::Link *up = nullptr;
  simgrid::s4u::Link *down = nullptr;
  simgrid::kernel::resource::StandardLinkImpl *up_impl = nullptr; /* cached: what a route lists */
  simgrid::kernel::resource::StandardLinkImpl *down_impl = nullptr;
};

Hop hop(const simgrid::s4u::SplitDuplexLink *link)
{
  Hop h;
  h.up = link->get_link_up();
  h.down = link->get_link_down();
  h.up_impl = h.up->get_impl();
  h.down_impl = h.down->get_impl();
  return h;
}

void add(routing::Route *into, double *latency, simgrid::kernel::resource::StandardLinkImpl *impl,
         const simgrid::s4u::Link *link)
{
  into->link_list_.push_back(impl);
  if (latency)
    *latency += link->get_latency();
}

/* One physical link's direction `up` (or down) onto a route. */
void add(routing::Route *into, double *latency, const Hop &h, bool up)
{
  if (up)
    add(into, latency, h.up_impl, h.up);
  else
    add(into, latency, h.down_impl, h.down);
}

/* A host to itself: the network model's loopback link, as SimGrid's routed zones give it. */
void loopback(routing::Route *into, double *latency)
{
  const simgrid::s4u::Link *link = simgrid::s4u::Link::by_name_or_null("__loopback__");
  if (link)
    add(into, latency, link->get_impl(), link);
}

/* ROWS x COLS hosts, host i at row i / COLS and column i % COLS. east_[i] is the link from host i to its east
 * neighbour (column + 1, or column 0 past the last on a torus), south_[i] to its south neighbour; empty where there is
 * none. A link goes UP from host i to its neighbour and DOWN back, as the explicit files' routes say. */
class GridZone : public routing::NetZoneImpl
{
public:
  GridZone(const std::string &name, unsigned long rows, unsigned long cols, bool torus)
      : NetZoneImpl(name), rows_(rows), cols_(cols), wrap_rows_(torus && cols > 2), wrap_cols_(torus && rows > 2),
        east_(rows * cols), south_(rows * cols)
  {
  }

  void set_east(unsigned long host, const simgrid::s4u::SplitDuplexLink *link)
  {
    east_[host] = hop(link);
  }
  void set_south(unsigned long host, const simgrid::s4u::SplitDuplexLink *link)
  {
    south_[host] = hop(link);
  }

  void get_local_route(const routing::NetPoint *src, const routing::NetPoint *dst, routing::Route *into,
                       double *latency) override
  {
    if (src->id() == dst->id())
      loopback(into, latency);
    else
      route(src->id(), dst->id(), [into, latency](const Hop &h, bool up) { add(into, latency, h, up); });
  }

  /* The links from host `at` to host `to` (distinct), in route order, each to sink(hop, up): along the upper host's
   * row, then along the lower host's column: the links of the route that SimGrid's Floyd and Dijkstra routings choose
   * over the explicit file's one-route-per-link description. Along a row, the column changes by one (mod cols) per
   * hop, host numbers by 1; along a column, host numbers by cols. */
  template <typename Sink> void route(unsigned long at, unsigned long to, Sink &&sink) const
  {
    bool row_first = at / cols_ <= to / cols_;
    if (row_first)
      walk(at, at % cols_, to % cols_, cols_, wrap_rows_, 1, east_, sink);
    walk(at, at / cols_, to / cols_, rows_, wrap_cols_, cols_, south_, sink);
    if (!row_first)
      walk(at, at % cols_, to % cols_, cols_, wrap_rows_, 1, east_, sink);
  }

  /* The links used by the routes between every two of `ids` (see sim_grid_links_between), or -1 on a torus. On the
   * route from the upper host u to the lower host v (r_u <= r_v), the row part runs along row r_u between the two
   * columns and the column part along column c_v between the two rows. So the link from (r, c) to (r, c + 1) is used
   * when row r holds a host and c lies between the least and greatest column of the hosts in rows >= r; the link from
   * (r, c) to (r + 1, c) when some host is in row r or above and column c holds a host below row r. */
  long links_between(const std::vector<unsigned long> &ids) const
  {
    if (wrap_rows_ || wrap_cols_)
      return -1;
    std::vector<long> row_min_col(rows_, -1); /* least column of the hosts in row r; -1: none */
    std::vector<long> row_max_col(rows_, -1);
    std::vector<long> col_max_row(cols_, -1); /* greatest row of the hosts in column c */
    long top = -1;
    for (unsigned long id : ids) {
      long r = (long)(id / cols_);
      long c = (long)(id % cols_);
      row_min_col[r] = row_min_col[r] < 0 ? c : std::min(row_min_col[r], c);
      row_max_col[r] = std::max(row_max_col[r], c);
      col_max_row[c] = std::max(col_max_row[c], r);
      top = top < 0 ? r : std::min(top, r);
    }
    long links = 0;
    long below_min = -1; /* least and greatest column of the hosts in rows >= r */
    long below_max = -1;
    for (long r = (long)rows_ - 1; r >= 0; r--) {
      if (row_min_col[r] < 0)
        continue;
      below_min = below_min < 0 ? row_min_col[r] : std::min(below_min, row_min_col[r]);
      below_max = std::max(below_max, row_max_col[r]);
      links += below_max - below_min;
    }
    for (unsigned long c = 0; top >= 0 && c < cols_; c++)
      links += std::max(col_max_row[c] - top, 0L);
    return links;
  }

private:
  unsigned long rows_;
  unsigned long cols_;
  bool wrap_rows_; /* whether a row has a wrap-around link */
  bool wrap_cols_;
  std::vector<Hop> east_;
  std::vector<Hop> south_;

  /* Moves host `at` from coordinate `from` to `to` in a dimension of `size` positions, `step` apart in host numbers,
   * giving sink each link crossed (forward: the link's UP; backward: the previous host's link, DOWN). */
  template <typename Sink>
  static void walk(unsigned long &at, unsigned long from, unsigned long to, unsigned long size, bool wrap,
                   unsigned long step, const std::vector<Hop> &forward_links, Sink &sink)
  {
    unsigned long ahead = (to + size - from) % size; /* hops forward, wrapping */
    bool forward = wrap ? ahead <= size - ahead : to > from;
    unsigned long hops = wrap ? (forward ? ahead : size - ahead) : (forward ? to - from : from - to);
    for (unsigned long h = 0; h < hops; h++) {
      unsigned long pos = (at / step) % size;
      if (forward) {
        sink(forward_links[at], true);
        at = pos + 1 == size ? at + step - size * step : at + step;
      } else {
        at = pos == 0 ? at + size * step - step : at - step;
        sink(forward_links[at], false);
      }
    }
  }
};

/* A K-ary fat tree of L levels, as `simrun platform fattree K:L` writes it: nodes numbered as the generator numbers
 * them (hosts 0 .. K^L - 1, then the level-1 switches, then level 2's, ... up to the root), node j of level m under
 * node j / K of level m + 1. up_[n] is the link from node n to its parent, taken UP going up and DOWN coming down, as
 * the explicit file's one route per link says. A route climbs from both hosts to their lowest common switch: on a tree
 * there is no other shortest path, so the links are the explicit file's. The switches are no network points here. */
class TreeZone : public routing::NetZoneImpl
{
public:
  TreeZone(const std::string &name, unsigned long k, unsigned long hosts, unsigned long nodes)
      : NetZoneImpl(name), k_(k), hosts_(hosts), up_(nodes)
  {
  }

  void set_up(unsigned long node, const simgrid::s4u::SplitDuplexLink *link)
  {
    up_[node] = hop(link);
  }

  void get_local_route(const routing::NetPoint *src, const routing::NetPoint *dst, routing::Route *into,
                       double *latency) override
  {
    if (src->id() == dst->id())
      loopback(into, latency);
    else
      route(src->id(), dst->id(), [into, latency](const Hop &h, bool up) { add(into, latency, h, up); });
  }

  /* The links from host a to host b (distinct), in route order, each to sink(hop, up). */
  template <typename Sink> void route(unsigned long a, unsigned long b, Sink &&sink) const
  {
    std::vector<const Hop *> down; /* the links from b up to the common switch, in that order */
    unsigned long first = 0;       /* the first node of the current level */
    unsigned long count = hosts_;  /* nodes of the current level */
    while (a != b) {
      sink(up_[first + a], true);
      down.push_back(&up_[first + b]);
      first += count;
      count /= k_;
      a /= k_;
      b /= k_;
    }
    for (auto h = down.rbegin(); h != down.rend(); ++h)
      sink(**h, false);
  }

private:
  unsigned long k_;
  unsigned long hosts_;
  std::vector<Hop> up_;
};

/* A zone's property, or an error naming it. */
std::string required(const simgrid::s4u::NetZone &zone, const char *key)
{
  const char *value = zone.get_property(key);
  if (!value)
    throw std::invalid_argument("zone '" + zone.get_name() + "' has " + sim_prop_name(SIM_PROP_GRID) + " but no " +
                                key + " property");
  return value;
}

std::string host_name(unsigned long row, unsigned long col)
{
  return "n" + std::to_string(row) + "-" + std::to_string(col);
}

/* A figure of a zone's links as its text and as SimGrid reads it, parsed once for all the links rather than once a
 * link (NaN when SimGrid refuses the text: the text then goes to SimGrid, whose message names the link). */
struct Figure {
  std::string text;
  double value;
};

Figure bandwidth_figure(const std::string &text)
{
  try {
    return {text, xbt_parse_get_bandwidth("", 0, text, "")}; /* as NetZone::create_split_duplex_link reads it */
  } catch (const simgrid::ParseError &) {
    return {text, NAN};
  }
}

Figure latency_figure(const std::string &text)
{
  try {
    return {text, xbt_parse_get_time("", 0, text, "")}; /* as Link::set_latency reads it */
  } catch (const simgrid::ParseError &) {
    return {text, NAN};
  }
}

/* A split-duplex link `name` of bandwidth bw and latency lat, created in `zone`. */
simgrid::s4u::SplitDuplexLink *new_link(simgrid::s4u::NetZone *zone, const std::string &name, const Figure &bw,
                                        const Figure &lat)
{
  auto *link = std::isnan(bw.value) ? zone->create_split_duplex_link(name, bw.text)
                                    : zone->create_split_duplex_link(name, bw.value);
  if (std::isnan(lat.value))
    link->set_latency(lat.text);
  else
    link->set_latency(lat.value);
  link->seal();
  return link;
}

/* The link between hosts a and b, as the explicit generator names it, created in `zone`. */
simgrid::s4u::SplitDuplexLink *grid_link(simgrid::s4u::NetZone *zone, unsigned long cols, unsigned long a,
                                         unsigned long b, const Figure &bandwidth, const Figure &latency)
{
  return new_link(zone, "l-" + host_name(a / cols, a % cols) + "-" + host_name(b / cols, b % cols), bandwidth, latency);
}

/* Whether property `key` is simrun's and not a host's (sim_prop_table.h): the grid's own, or the root zone's. */
bool not_for_hosts(const std::string &key)
{
  int id = sim_prop_find(key.c_str());
  sim_prop_scope_t scope = id < 0 ? SIM_SCOPE_HOST : sim_prop_row(static_cast<sim_prop_id_t>(id))->scope;
  return scope != SIM_SCOPE_HOST && scope != SIM_SCOPE_HOST_ONLY;
}

/* What every host of a native zone gets: its speed, as SimGrid reads it, and every property of the zone `spec` but
 * simrun's that are not a host's (the grid's, the root zone's), in the zone's order; found once for all the hosts. */
struct HostSpec {
  std::vector<double> speed;
  std::vector<std::pair<std::string, std::string>> properties;
};

HostSpec host_spec(const simgrid::s4u::NetZone &spec, const std::string &speed)
{
  HostSpec hosts{simgrid::s4u::Host::convert_pstate_speed_vector({speed}), {}};
  for (const auto &[key, value] : *spec.get_properties())
    if (!not_for_hosts(key))
      hosts.properties.emplace_back(key, value);
  return hosts;
}

/* Host `name` of `zone`, as `spec` says. */
simgrid::s4u::Host *create_host(simgrid::s4u::NetZone *zone, const HostSpec &spec, const std::string &name)
{
  auto *host = zone->create_host(name, spec.speed);
  for (const auto &[key, value] : spec.properties)
    host->set_property(key, value);
  return host;
}

/* Hosts row by row, then links in the explicit file's order: per host east then south, then the torus' wraps. */
void fill(GridZone *grid, const simgrid::s4u::NetZone &spec, unsigned long rows, unsigned long cols, bool torus)
{
  simgrid::s4u::NetZone *zone = grid->get_iface();
  HostSpec hosts = host_spec(spec, required(spec, sim_prop_name(SIM_PROP_GRID_SPEED)));
  Figure bandwidth = bandwidth_figure(required(spec, sim_prop_name(SIM_PROP_GRID_BANDWIDTH)));
  Figure latency = latency_figure(required(spec, sim_prop_name(SIM_PROP_GRID_LATENCY)));
  for (unsigned long i = 0; i < rows * cols; i++) {
    auto *host = create_host(zone, hosts, host_name(i / cols, i % cols));
    host->set_property(sim_prop_name(SIM_PROP_ROW), std::to_string(i / cols));
    host->set_property(sim_prop_name(SIM_PROP_COL), std::to_string(i % cols));
  }
  for (unsigned long i = 0; i < rows * cols; i++) {
    if (i % cols + 1 < cols)
      grid->set_east(i, grid_link(zone, cols, i, i + 1, bandwidth, latency));
    if (i / cols + 1 < rows)
      grid->set_south(i, grid_link(zone, cols, i, i + cols, bandwidth, latency));
  }
  for (unsigned long r = 0; torus && cols > 2 && r < rows; r++)
    grid->set_east(r * cols + cols - 1, grid_link(zone, cols, r * cols + cols - 1, r * cols, bandwidth, latency));
  for (unsigned long c = 0; torus && rows > 2 && c < cols; c++)
    grid->set_south((rows - 1) * cols + c, grid_link(zone, cols, (rows - 1) * cols + c, c, bandwidth, latency));
}

/* Fat-tree node n's name in the explicit file: host n<n>, or switch s<level>-<j>, counting `hosts` hosts first. */
std::string tree_node(unsigned long n, unsigned long k, unsigned long hosts)
{
  if (n < hosts)
    return "n" + std::to_string(n);
  unsigned long level = 1;
  for (unsigned long count = hosts / k; n - hosts >= count; count /= k, level++)
    n -= count;
  return "s" + std::to_string(level) + "-" + std::to_string(n - hosts);
}

/* `base` (a number and a SimGrid bandwidth unit, such as "125MBps") times `factor`, written as the generator writes a
 * fat link's bandwidth (plt_topo.c: %.10g and the unit). */
std::string times(const std::string &base, double factor)
{
  size_t unit = 0;
  double value = std::stod(base, &unit);
  char text[64];
  snprintf(text, sizeof text, "%.10g%s", value * factor, base.c_str() + unit);
  return text;
}

/* Hosts n0 .. n<K^L - 1>, then the links in the explicit file's order: each node's link to its parent, level by level,
 * a link from level m up carrying K^m times the base bandwidth (the base exactly as given on level 0). */
void fill_tree(TreeZone *tree, const simgrid::s4u::NetZone &spec, unsigned long k, unsigned long hosts)
{
  simgrid::s4u::NetZone *zone = tree->get_iface();
  HostSpec host = host_spec(spec, required(spec, sim_prop_name(SIM_PROP_GRID_SPEED)));
  std::string bandwidth = required(spec, sim_prop_name(SIM_PROP_GRID_BANDWIDTH));
  Figure latency = latency_figure(required(spec, sim_prop_name(SIM_PROP_GRID_LATENCY)));
  for (unsigned long i = 0; i < hosts; i++)
    create_host(zone, host, tree_node(i, k, hosts));
  unsigned long first = 0; /* the first node of the level */
  double fat = 1;
  for (unsigned long count = hosts; count > 1; first += count, count /= k, fat *= (double)k) {
    Figure level = bandwidth_figure(fat == 1 ? bandwidth : times(bandwidth, fat));
    for (unsigned long j = 0; j < count; j++)
      tree->set_up(first + j,
                   new_link(zone,
                            "l-" + tree_node(first + j, k, hosts) + "-" + tree_node(first + count + j / k, k, hosts),
                            level, latency));
  }
}

/* A fat tree "fattree K:L" as a child of zone `spec`. */
void build_tree(simgrid::s4u::NetZone *spec, const std::string &shape)
{
  unsigned long k;
  unsigned long levels;
  char extra;
  unsigned long hosts = 1;
  unsigned long nodes = 1; /* the root */
  bool ok = sscanf(shape.c_str(), "fattree %lu:%lu %c", &k, &levels, &extra) == 2 && k >= 2 && levels >= 1;
  for (unsigned long m = 0; ok && m < levels; m++) {
    ok = hosts <= (1ul << 24) / k;
    hosts *= k;
    nodes += hosts;
  }
  if (!ok)
    throw std::invalid_argument("zone '" + spec->get_name() + "': " + sim_prop_name(SIM_PROP_GRID) + " '" + shape +
                                "' is not 'fattree K:L' with K >= 2, L >= 1");
  auto *tree = new TreeZone(spec->get_name() + "-tree", k, hosts, nodes);
  tree->set_parent(spec->get_impl());
  fill_tree(tree, *spec, k, hosts); /* sealed with the platform */
}

/* Builds the grid or tree a zone's simrun:grid property describes, as a child of that zone. */
void build(simgrid::s4u::NetZone *spec)
{
  std::string shape = spec->get_property(sim_prop_name(SIM_PROP_GRID));
  if (shape.rfind("fattree ", 0) == 0) {
    build_tree(spec, shape);
    return;
  }
  char kind[16];
  unsigned long rows;
  unsigned long cols;
  char extra;
  if (sscanf(shape.c_str(), "%15s %lux%lu %c", kind, &rows, &cols, &extra) != 3 ||
      (std::string(kind) != "mesh" && std::string(kind) != "torus") || rows < 1 || cols < 1 || rows * cols > 1u << 24)
    throw std::invalid_argument("zone '" + spec->get_name() + "': " + sim_prop_name(SIM_PROP_GRID) + " '" + shape +
                                "' is not 'mesh ROWSxCOLS', 'torus ROWSxCOLS' or 'fattree K:L'");
  bool torus = std::string(kind) == "torus";
  auto *grid = new GridZone(spec->get_name() + "-grid", rows, cols, torus);
  grid->set_parent(spec->get_impl());
  fill(grid, *spec, rows, cols, torus); /* sealed with the platform */
}

void build_all(simgrid::s4u::NetZone *zone)
{
  std::vector<simgrid::s4u::NetZone *> children = zone->get_children(); /* a copy: build() adds a child */
  if (zone->get_property(sim_prop_name(SIM_PROP_GRID)))
    build(zone);
  for (auto *child : children)
    build_all(child);
}
} // namespace

extern "C" int sim_grid_links_between(const sg_host_t *hosts, size_t count)
{
  const GridZone *grid = nullptr;
  std::vector<unsigned long> ids(count);
  for (size_t i = 0; i < count; i++) {
    const auto *zone = dynamic_cast<const GridZone *>(hosts[i]->get_englobing_zone()->get_impl());
    if (!zone || (grid && zone != grid))
      return -1;
    grid = zone;
    ids[i] = hosts[i]->get_netpoint()->id();
  }
  return grid ? (int)grid->links_between(ids) : -1;
}

extern "C" int sim_grid_route_links(const_sg_host_t a, const_sg_host_t b, const_sg_link_t *out, int max)
{
  const routing::NetZoneImpl *zone = a->get_englobing_zone()->get_impl();
  if (a == b || zone != b->get_englobing_zone()->get_impl())
    return -1;
  int n = 0;
  auto sink = [out, max, &n](const Hop &h, bool up) {
    if (n < max)
      out[n] = up ? h.up : h.down;
    n++;
  };
  static const routing::NetZoneImpl *last = nullptr; /* the zone last asked about, and what it is: the models ask */
  static const GridZone *grid = nullptr;             /* thousands of routes in one zone */
  static const TreeZone *tree = nullptr;
  if (zone != last) {
    grid = dynamic_cast<const GridZone *>(zone);
    tree = dynamic_cast<const TreeZone *>(zone);
    last = zone;
  }
  unsigned long from = a->get_netpoint()->id();
  unsigned long to = b->get_netpoint()->id();
  if (grid)
    grid->route(from, to, sink);
  else if (tree)
    tree->route(from, to, sink);
  else
    return -1;
  return n;
}

extern "C" const void *sim_grid_native_zone(const_sg_host_t host)
{
  const routing::NetZoneImpl *zone = host->get_englobing_zone()->get_impl();
  return dynamic_cast<const GridZone *>(zone) || dynamic_cast<const TreeZone *>(zone) ? zone : nullptr;
}

extern "C" int sim_grid_build(char *err, size_t errlen)
{
  try {
    build_all(simgrid::s4u::Engine::get_instance()->get_netzone_root());
  } catch (const std::exception &e) {
    snprintf(err, errlen, "%s", e.what());
    return SIM_EPLATFORM;
  }
  return 0;
}
