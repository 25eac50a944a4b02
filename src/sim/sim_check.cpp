/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Platform checks before a sweep: SimGrid aborts the process (xbt_die, "The Impossible Did Happen") on a host of speed
 * 0, a link of bandwidth 0 or a send between hosts with no route, and its parse errors have no column and no fix;
 * these checks turn each into a message with the place and the fix instead (libxml2 reads the file first). */
#include "sim_check.h"
#include "sim_engine.h"
#include "sim_error.h"
#include "sim_grid.h"
#include "sim_prop.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <strings.h>
#include <sys/stat.h>
#include <exception>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include <simgrid/host.h>
#include <simgrid/link.h>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <xbt/config.hpp>
#include <xbt/dynar.h>

/* A mesh coordinate (simrun:row, simrun:col), which the mapper reads with atoi: a whole number in the row's range. */
static int check_coordinate(const_sg_host_t host, sim_prop_id_t id, char *err, size_t errlen)
{
  const sim_prop_t *prop = sim_prop_row(id);
  const char *text = sg_host_get_property_value(host, prop->name);
  char *end = nullptr;
  long value = text ? strtol(text, &end, 10) : 0;
  if (!text || (end != text && *end == '\0' && value >= prop->lo && value <= prop->hi))
    return 0;
  snprintf(err, errlen, "host '%s': property %s = \"%s\"; give a whole number from %g to %g", sg_host_get_name(host),
           prop->name, text, prop->lo, prop->hi);
  return SIM_EPLATFORM;
}

static int check_hosts(char *err, size_t errlen)
{
  for (size_t i = 0; i < sim_engine_host_count(); i++) {
    const_sg_host_t host = sim_engine_host(i);
    if (check_coordinate(host, SIM_PROP_ROW, err, errlen) || check_coordinate(host, SIM_PROP_COL, err, errlen))
      return SIM_EPLATFORM;
    double speed = sg_host_get_speed(host);
    if (!(speed >= SIM_CHECK_MIN_SPEED && speed <= SIM_CHECK_MAX_SPEED)) {
      snprintf(err, errlen,
               "host '%s' has speed %g flop/s, outside [1 flop/s, 1e18 flop/s]; give every host a speed in that "
               "range, such as speed=\"1Gf\"",
               sg_host_get_name(host), speed);
      return SIM_EPLATFORM;
    }
  }
  return 0;
}

static int check_links(char *err, size_t errlen)
{
  sg_link_t *links = sg_link_list();
  size_t count = sg_link_count();
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < count; i++) {
    double bandwidth = sg_link_get_bandwidth(links[i]);
    double latency = sg_link_get_latency(links[i]);
    if (!(bandwidth >= SIM_CHECK_MIN_BANDWIDTH && bandwidth <= SIM_CHECK_MAX_BANDWIDTH))
      snprintf(err, errlen,
               "link '%s' has bandwidth %g B/s, outside [1 B/s, 1 PB/s]; give every link a bandwidth in that range, "
               "such as bandwidth=\"1GBps\"",
               sg_link_get_name(links[i]), bandwidth);
    else if (!(latency >= 0 && latency <= SIM_CHECK_MAX_LATENCY))
      snprintf(err, errlen,
               "link '%s' has latency %g s, outside [0, 3600 s]; give every link a latency in that range, such as "
               "latency=\"10us\"",
               sg_link_get_name(links[i]), latency);
    else
      continue;
    rc = SIM_EPLATFORM;
  }
  free(links);
  return rc;
}

/* The name of a link the route `links` passes twice, or NULL: a message would share bandwidth with itself. Of several,
 * the one met first on the route. Sorted (link, position) pairs: a route of a 1024 x 1024 mesh has 2046 links, and
 * comparing every pair of them from one host to every other would take hours. */
static const char *repeated_link(const_xbt_dynar_t links)
{
  unsigned long n = xbt_dynar_length(links);
  std::vector<std::pair<sg_link_t, unsigned long>> sorted(n);
  for (unsigned long i = 0; i < n; i++)
    sorted[i] = {xbt_dynar_get_as(links, i, sg_link_t), i};
  std::sort(sorted.begin(), sorted.end());
  unsigned long first = n;
  for (unsigned long i = 0; i + 1 < n; i++)
    if (sorted[i].first == sorted[i + 1].first && (i == 0 || sorted[i - 1].first != sorted[i].first) &&
        sorted[i].second < first)
      first = sorted[i].second;
  return first < n ? sg_link_get_name(xbt_dynar_get_as(links, first, sg_link_t)) : nullptr;
}

/* Whether a message from a to b has a way: two distinct hosts need at least one link between them, each once. */
static int check_route(const_sg_host_t a, const_sg_host_t b, xbt_dynar_t links, char *err, size_t errlen)
{
  if (a == b)
    return 0;
  xbt_dynar_reset(links);
  try {
    sg_host_get_route(a, b, links); /* Floyd routing throws when there is none */
  } catch (const std::exception &) {
    xbt_dynar_reset(links);
  }
  const char *twice = xbt_dynar_is_empty(links) ? nullptr : repeated_link(links);
  if (twice) {
    snprintf(err, errlen, "the route from host '%s' to host '%s' passes link '%s' twice; list each link once",
             sg_host_get_name(a), sg_host_get_name(b), twice);
    return SIM_EPLATFORM;
  }
  if (!xbt_dynar_is_empty(links))
    return 0;
  snprintf(err, errlen,
           "there is no route from host '%s' to host '%s'; add a <route> between them or connect their "
           "zones",
           sg_host_get_name(a), sg_host_get_name(b));
  return SIM_EPLATFORM;
}

/* Every pair on small platforms; on large ones, from the first host to every other: a route from each source costs a
 * shortest-path search on Dijkstra-routed zones (8192 of them took 5 s on a 4096-host mesh), and one source finds a
 * host cut off from the rest, though not a route missing in one direction between two others. Pairs inside one
 * native grid or tree zone are not looked up: their routes are right by construction (sim_grid.h), and looking up
 * every pair of a 256-host native mesh cost a third of what SimGrid spends simulating Gauss-Jordan on it. */
static int check_routes(char *err, size_t errlen)
{
  size_t n = sim_engine_host_count();
  size_t sources = n <= SIM_CHECK_ALL_PAIRS_MAX ? n : 1;
  std::vector<const void *> native(n);
  for (size_t i = 0; i < n; i++)
    native[i] = sim_grid_native_zone(sim_engine_host(i));
  xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
  int rc = 0;
  for (size_t a = 0; rc == 0 && a < sources; a++)
    for (size_t b = 0; rc == 0 && b < n; b++)
      if (!native[a] || native[a] != native[b])
        rc = check_route(sim_engine_host(a), sim_engine_host(b), links, err, errlen);
  xbt_dynar_free(&links);
  return rc;
}

extern "C" int sim_check_platform(char *err, size_t errlen)
{
  int rc = check_hosts(err, errlen);
  rc = rc ? rc : check_links(err, errlen);
  return rc ? rc : check_routes(err, errlen);
}

/* Every one of the `count` values read from property `id` in its row's range (sim_prop_table.h). */
static int check_values(sim_prop_id_t id, const double *values, int count, char *err, size_t errlen)
{
  const sim_prop_t *prop = sim_prop_row(id);
  char range[64];
  sim_prop_range_text(prop, range, sizeof range);
  for (int i = 0; i < count; i++)
    if (!(values[i] >= prop->lo && values[i] <= prop->hi)) {
      snprintf(err, errlen, "platform property %s: value %d is %g; give numbers in %s%s", prop->name, i + 1, values[i],
               range, prop->lo == 0 ? " (a cost or a size is not negative)" : "");
      return SIM_EPLATFORM;
    }
  return 0;
}

extern "C" int sim_check_machine(const sim_machine_t *m, char *err, size_t errlen)
{
  /* The fitted coefficients of eq. 4 may be negative (the T800's large-message alpha is -81.5 us); a size or a cost
   * of initialising a link may not. */
  int rc = check_values(SIM_PROP_COMM_PACKET_BYTES, &m->msg.packet_bytes, 1, err, errlen);
  rc = rc ? rc : check_values(SIM_PROP_COMM_SMALL_US, m->msg.small, 4, err, errlen);
  rc = rc ? rc : check_values(SIM_PROP_COMM_LARGE_US, m->msg.large, 4, err, errlen);
  rc = rc ? rc : check_values(SIM_PROP_INTERNODE_PACKET_BYTES, &m->internode_msg.packet_bytes, 1, err, errlen);
  rc = rc ? rc : check_values(SIM_PROP_INTERNODE_SMALL_US, m->internode_msg.small, 4, err, errlen);
  rc = rc ? rc : check_values(SIM_PROP_INTERNODE_LARGE_US, m->internode_msg.large, 4, err, errlen);
  rc = rc ? rc : check_values(SIM_PROP_LINK_INIT_US, &m->link_init_us, 1, err, errlen);
  rc = rc ? rc : check_values(SIM_PROP_IO_INPUT_US, m->input_us, 2, err, errlen); /* eqs. 5-6: costs */
  rc = rc ? rc : check_values(SIM_PROP_IO_OUTPUT_US, m->output_us, 2, err, errlen);
  return rc ? rc : check_values(SIM_PROP_EAGER_BYTES, &m->eager_bytes, 1, err, errlen);
}

/* Where a property was found: a host, the root zone, another zone or a link, and its name. */
enum class owner_kind { HOST, ROOT, ZONE, LINK };
struct owner {
  owner_kind kind;
  const char *name;
};

/* Whether a property of `scope` means something where it was found (sim_prop_table.h; sim_engine_host_property reads
 * a host's from its zones too, sim_engine_property the root zone's alone). */
static bool in_scope(sim_prop_scope_t scope, owner_kind kind)
{
  switch (scope) {
  case SIM_SCOPE_ROOT:
    return kind == owner_kind::ROOT;
  case SIM_SCOPE_HOST:
    return kind != owner_kind::LINK;
  case SIM_SCOPE_HOST_ONLY:
    return kind == owner_kind::HOST;
  case SIM_SCOPE_LINK:
    return kind == owner_kind::LINK;
  default:
    return kind == owner_kind::ROOT || kind == owner_kind::ZONE;
  }
}

/* One property `key` = `value` of `where`: a simrun:* name must be in the table, in its scope, with a legal value. */
static int check_property(const char *platform, const owner &where, const std::string &key, const std::string &value,
                          char *err, size_t errlen)
{
  static const char *const kinds[] = {"host", "zone", "zone", "link"};
  if (key.rfind("simrun:", 0) != 0)
    return 0;
  int id = sim_prop_find(key.c_str());
  char why[256];
  if (id < 0)
    snprintf(why, sizeof why,
             "simrun has no such property (docs/properties.md lists them all); fix the name or remove it");
  else if (!in_scope(sim_prop_row(static_cast<sim_prop_id_t>(id))->scope, where.kind))
    snprintf(why, sizeof why, "it is read from a %s only, so here it would be ignored; move it there",
             sim_prop_scope_text(sim_prop_row(static_cast<sim_prop_id_t>(id))));
  else if (sim_prop_check_value(sim_prop_row(static_cast<sim_prop_id_t>(id)), value.c_str(), why, sizeof why) == 0)
    return 0;
  else
    snprintf(why + strlen(why), sizeof why - strlen(why), "; fix the value");
  /* the line only for the message: it reads the file, and every host of a native zone carries its zone's properties */
  snprintf(err, errlen, "%s:%d: property %s = \"%s\" (on %s '%s'): %s", platform,
           sim_prop_line(platform, key.c_str(), value.c_str()), key.c_str(), value.c_str(),
           kinds[static_cast<int>(where.kind)], where.name, why);
  return SIM_EPLATFORM;
}

static int check_all(const char *platform, const owner &where,
                     const std::unordered_map<std::string, std::string> *props, char *err, size_t errlen)
{
  for (const auto &[key, value] : *props)
    if (check_property(platform, where, key, value, err, errlen) != 0)
      return SIM_EPLATFORM;
  return 0;
}

static int check_zone(const char *platform, const simgrid::s4u::NetZone *zone, bool root, char *err, size_t errlen)
{
  int rc = check_all(platform, {root ? owner_kind::ROOT : owner_kind::ZONE, zone->get_cname()}, zone->get_properties(),
                     err, errlen);
  for (const auto *child : zone->get_children())
    rc = rc ? rc : check_zone(platform, child, false, err, errlen);
  return rc;
}

extern "C" int sim_check_props(const char *platform, char *err, size_t errlen)
{
  const auto *engine = simgrid::s4u::Engine::get_instance();
  int rc = check_zone(platform, engine->get_netzone_root(), true, err, errlen);
  for (const auto *host : engine->get_all_hosts())
    rc = rc ? rc : check_all(platform, {owner_kind::HOST, host->get_cname()}, host->get_properties(), err, errlen);
  for (const auto *link : engine->get_all_links())
    rc = rc ? rc : check_all(platform, {owner_kind::LINK, link->get_cname()}, link->get_properties(), err, errlen);
  return rc;
}

/* Keeps the first of libxml2's errors (the last one, once parsing gave up, is often "Premature end of data"). */
static void keep_first(void *first, xmlError *e) /* xmlStructuredErrorFunc of libxml2 2.9 */
{
  xmlError *kept = static_cast<xmlError *>(first);
  if (kept->code == XML_ERR_OK && e)
    xmlCopyError(e, kept);
}

/* The first error libxml2 met, as "FILE:LINE:COLUMN: what; fix". */
static int not_well_formed(const char *platform, const xmlError *e, char *err, size_t errlen)
{
  char what[300];
  snprintf(what, sizeof what, "%s", e && e->message ? e->message : "unreadable XML");
  what[strcspn(what, "\n")] = '\0';
  snprintf(err, errlen, "%s:%d:%d: not well-formed XML: %s; fix the syntax at that place", platform, e ? e->line : 0,
           e ? e->int2 : 0, what);
  return SIM_EPLATFORM;
}

/* The routings of <zone routing="..."> SimGrid 3.32 builds (sg_platf_create_zone, compared without case): any other
 * value aborts the loading process ("Not a valid model!"). */
static const char *const zone_routings[] = {"Cluster",  "ClusterDragonfly", "ClusterTorus", "ClusterFatTree",
                                            "Dijkstra", "DijkstraCache",    "Floyd",        "Full",
                                            "None",     "Vivaldi",          "Wifi"};

static int known_routing(const char *routing)
{
  for (const char *known : zone_routings)
    if (strcasecmp(routing, known) == 0)
      return 1;
  return 0;
}

/* An attribute's value as a new std::string ("" when absent). */
static std::string attribute(const xmlNode *node, const char *name)
{
  xmlChar *value = xmlGetProp(node, BAD_CAST name);
  std::string text = value ? reinterpret_cast<const char *>(value) : "";
  xmlFree(value);
  return text;
}

/* Whether the file an attribute names is there: beside the platform, else from the current folder, as SimGrid looks. */
static int named_file_there(const char *platform, const std::string &name)
{
  std::string beside = name;
  const char *slash = strrchr(platform, '/');
  if (!name.empty() && name[0] != '/' && slash)
    beside = std::string(platform, (size_t)(slash - platform + 1)) + name;
  struct stat st;
  return (stat(beside.c_str(), &st) == 0 && S_ISREG(st.st_mode)) ||
         (stat(name.c_str(), &st) == 0 && S_ISREG(st.st_mode));
}

/* Hosts of a zone of Dijkstra routing that its <route>s do not join: SimGrid 3.32 dereferences the missing path and
 * dies of SIGSEGV when a route between them is asked for. Only zones of hosts, routers, links and routes are judged
 * (a sub-zone's gateways route beyond what the zone says). The first host not reached from the zone's first host,
 * or NULL; a route is both ways unless symmetrical="NO". */
static const xmlNode *unjoined_host(const xmlNode *zone)
{
  std::unordered_map<std::string, std::vector<std::string>> next;
  std::vector<const xmlNode *> hosts;
  for (const xmlNode *n = zone->children; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE)
      continue;
    std::string kind = reinterpret_cast<const char *>(n->name);
    if (kind == "zone" || kind == "cluster" || kind == "zoneRoute" || kind == "cabinet" || kind == "peer")
      return nullptr;
    if (kind == "host")
      hosts.push_back(n);
    if (kind != "route")
      continue;
    std::string src = attribute(n, "src"), dst = attribute(n, "dst");
    next[src].push_back(dst);
    if (strcasecmp(attribute(n, "symmetrical").c_str(), "NO") != 0)
      next[dst].push_back(src);
  }
  if (hosts.size() < 2)
    return nullptr;
  std::unordered_map<std::string, int> seen;
  std::vector<std::string> todo = {attribute(hosts[0], "id")};
  seen[todo[0]] = 1;
  while (!todo.empty()) {
    std::string at = todo.back();
    todo.pop_back();
    for (const auto &to : next[at])
      if (!seen[to]++)
        todo.push_back(to);
  }
  for (const xmlNode *host : hosts)
    if (!seen[attribute(host, "id")])
      return host;
  return nullptr;
}

/* What makes SimGrid 3.32 abort or crash while it loads `node` and what it holds, found first: an unknown zone
 * routing, a file a profile attribute names that is not there, hosts of a Dijkstra zone no route joins. 0, or
 * SIM_EPLATFORM with "FILE:LINE: what; fix". */
static int check_loadable(const char *platform, const xmlNode *node, char *err, size_t errlen)
{
  for (const xmlNode *n = node; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE)
      continue;
    int line = (int)xmlGetLineNo(n);
    const char *name = reinterpret_cast<const char *>(n->name);
    std::string routing = attribute(n, "routing");
    if (strcmp(name, "zone") == 0 && !routing.empty() && !known_routing(routing.c_str())) {
      snprintf(err, errlen,
               "%s:%d: routing=\"%.100s\" is no routing SimGrid knows; write Full, Floyd, Dijkstra, DijkstraCache, "
               "None, Vivaldi, Wifi, Cluster, ClusterTorus, ClusterFatTree or ClusterDragonfly",
               platform, line, routing.c_str());
      return SIM_EPLATFORM;
    }
    for (const xmlAttr *a = n->properties; a; a = a->next) {
      const char *key = reinterpret_cast<const char *>(a->name);
      size_t len = strlen(key);
      if (strcmp(key, "file") != 0 && !(len > 5 && strcmp(key + len - 5, "_file") == 0))
        continue; /* only the attributes that name a file: their values are read */
      std::string value = attribute(n, key);
      if (!named_file_there(platform, value)) {
        snprintf(err, errlen,
                 "%s:%d: %s=\"%.200s\": no such file beside the platform or in the current folder; give the profile "
                 "file's path, relative to the platform's folder",
                 platform, line, key, value.c_str());
        return SIM_EPLATFORM;
      }
    }
    const xmlNode *host = nullptr;
    if (strcmp(name, "zone") == 0 &&
        (strcasecmp(routing.c_str(), "Dijkstra") == 0 || strcasecmp(routing.c_str(), "DijkstraCache") == 0) &&
        (host = unjoined_host(n))) {
      snprintf(err, errlen,
               "%s:%d: host '%.100s' is joined to the zone's first host by no chain of <route>s (routing %s), which "
               "SimGrid crashes on; add a <route> to it",
               platform, (int)xmlGetLineNo(host), attribute(host, "id").c_str(), routing.c_str());
      return SIM_EPLATFORM;
    }
    int rc = check_loadable(platform, n->children, err, errlen);
    if (rc != 0)
      return rc;
  }
  return 0;
}

/* The first element under `node` (itself included, document order) that `match` accepts, or nullptr. */
template <typename Match> static const xmlNode *find_element(const xmlNode *node, const Match &match)
{
  for (; node; node = node->next) {
    if (node->type != XML_ELEMENT_NODE)
      continue;
    if (match(node))
      return node;
    if (const xmlNode *found = find_element(node->children, match))
      return found;
  }
  return nullptr;
}

static bool named(const xmlNode *node, const char *name)
{
  return xmlStrcmp(node->name, BAD_CAST name) == 0;
}

/* A <platform version> newer than the 4.1 SimGrid 3.32 reads (its parser's own complaint shouts and has no fix). */
static int check_version(const char *platform, const xmlNode *root, char *err, size_t errlen)
{
  std::string version = attribute(root, "version");
  int major = 0;
  int minor = 0;
  if (version.empty() || sscanf(version.c_str(), "%d.%d", &major, &minor) < 1 || major < 4 ||
      (major == 4 && minor <= 1))
    return 0;
  snprintf(err, errlen,
           "%s:%d: <platform version=\"%s\">: SimGrid 3.32 reads platform files up to version 4.1; write "
           "version=\"4.1\" and keep to the elements of https://simgrid.org/simgrid.dtd of that version",
           platform, (int)xmlGetLineNo(root), version.c_str());
  return SIM_EPLATFORM;
}

/* A WIFI zone or link: a message's rate there depends on each host's rate in the cell, which simrun's route checks,
 * models and analytic network do not follow (and its routes were refused as passing a link twice). */
static int check_wifi(const char *platform, const xmlNode *root, char *err, size_t errlen)
{
  const xmlNode *wifi = find_element(root, [](const xmlNode *node) {
    return ((named(node, "zone") || named(node, "AS")) && attribute(node, "routing") == "Wifi") ||
           (named(node, "link") && attribute(node, "sharing_policy") == "WIFI");
  });
  if (!wifi)
    return 0;
  snprintf(err, errlen,
           "%s:%d: %s '%s' is a WIFI %s, which simrun does not simulate (a host's rate in the cell is its own); "
           "model the cell as a wired zone, each station's link of the rate it gets",
           platform, (int)xmlGetLineNo(wifi), named(wifi, "link") ? "link" : "zone", attribute(wifi, "id").c_str(),
           named(wifi, "link") ? "link" : "zone");
  return SIM_EPLATFORM;
}

/* A state profile, which can switch a host or link off mid-run (state_file, or a HOST_AVAIL or LINK_AVAIL
 * <trace_connect>): a rank on a host switched off stops, or SimGrid aborts as it starts one there, and a message over
 * a link switched off fails, where simrun's ranks and models assume every host and link stays on. */
static int check_state_profiles(const char *platform, const xmlNode *root, char *err, size_t errlen)
{
  const xmlNode *profile = find_element(root, [](const xmlNode *node) {
    std::string kind = attribute(node, "kind");
    return !attribute(node, "state_file").empty() ||
           (named(node, "trace_connect") && (kind == "HOST_AVAIL" || kind == "LINK_AVAIL"));
  });
  if (!profile)
    return 0;
  bool connect = named(profile, "trace_connect");
  snprintf(err, errlen,
           "%s:%d: <%s %s=\"%s\">: a state profile can switch %s '%s' off during the run, which simrun's ranks "
           "and messages cannot outlive; remove the %s (a speed profile, speed_file, only changes its speed)",
           platform, (int)xmlGetLineNo(profile), (const char *)profile->name, connect ? "kind" : "state_file",
           attribute(profile, connect ? "kind" : "state_file").c_str(),
           connect ? "element" : (const char *)profile->name, attribute(profile, connect ? "element" : "id").c_str(),
           connect ? "<trace_connect>" : "state_file");
  return SIM_EPLATFORM;
}

extern "C" const char sim_check_constant_reason[] = "the Constant network model has no links and so no routes between "
                                                    "hosts, which simrun maps ranks by and prices messages along";

/* SimGrid's Constant network model: it creates no link (it aborts on one), so its hosts have no routes, along which
 * simrun maps ranks, checks a platform and prices messages (a zone without routing aborts when asked for one). */
static int check_constant(const char *platform, const xmlNode *root, char *err, size_t errlen)
{
  const xmlNode *constant = find_element(root, [](const xmlNode *node) {
    return named(node, "prop") && node->parent && named(node->parent, "config") &&
           attribute(node, "id") == "network/model" && attribute(node, "value") == "Constant";
  });
  if (!constant)
    return 0;
  snprintf(err, errlen,
           "%s:%d: <config> network/model = \"Constant\": %s; choose CM02, LV08 or SMPI, with links and routes",
           platform, (int)xmlGetLineNo(constant), sim_check_constant_reason);
  return SIM_EPLATFORM;
}

/* What SimGrid's parser would say without a line, a column or a fix: not XML at all, XML that is not a platform (a
 * scenario), a platform without the DOCTYPE line SimGrid's parser needs, a version newer than it reads, and a WIFI
 * zone, a state profile or the Constant network model, which simrun does not simulate. */
extern "C" int sim_check_platform_xml(const char *platform, char *err, size_t errlen)
{
  xmlError first = {};
  xmlSetStructuredErrorFunc(&first, keep_first);
  xmlDoc *doc = xmlReadFile(platform, nullptr, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  xmlSetStructuredErrorFunc(nullptr, nullptr);
  int rc = doc ? 0 : not_well_formed(platform, &first, err, errlen);
  xmlResetError(&first);
  if (!doc)
    return rc;
  const xmlNode *root = xmlDocGetRootElement(doc);
  rc = SIM_EPLATFORM;
  if (!root)
    snprintf(err, errlen, "%s:1: no element at all; give a SimGrid platform file, such as simrun platform writes",
             platform);
  else if (xmlStrcmp(root->name, BAD_CAST "scenario") == 0)
    snprintf(err, errlen,
             "%s:%d: this is a simrun scenario, not a platform; name a SimGrid platform file (one of platforms/, or "
             "one simrun platform writes)",
             platform, (int)xmlGetLineNo(root));
  else if (xmlStrcmp(root->name, BAD_CAST "platform") != 0)
    snprintf(err, errlen,
             "%s:%d: the root element is <%s>, not <platform>: not a SimGrid platform; give a platform file, such as "
             "simrun platform writes",
             platform, (int)xmlGetLineNo(root), (const char *)root->name);
  else if (!doc->intSubset || xmlStrcmp(doc->intSubset->name, BAD_CAST "platform") != 0)
    snprintf(err, errlen,
             "%s:%d: no <!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">, which SimGrid's parser needs "
             "before <platform>; add that line after <?xml ...?>",
             platform, (int)xmlGetLineNo(root));
  else if ((rc = check_version(platform, root, err, errlen)) == 0 &&
           (rc = check_wifi(platform, root, err, errlen)) == 0 &&
           (rc = check_state_profiles(platform, root, err, errlen)) == 0 &&
           (rc = check_constant(platform, root, err, errlen)) == 0)
    rc = check_loadable(platform, root, err, errlen);
  xmlFreeDoc(doc);
  return rc;
}

/* SimGrid 3.32's model and optimisation names (src/surf/surf_interface.cpp's descriptions): a name outside these
 * makes SimGrid abort the process while it loads the platform, where an exception would carry a message. */
static const struct {
  const char *key;
  const char *names[7];
} setting_names[] = {
    {"network/model", {"LV08", "Constant", "SMPI", "IB", "CM02", "ns-3", nullptr}},
    {"host/model", {"default", "compound", "ptask_L07", nullptr}},
    {"cpu/model", {"Cas01", nullptr}},
    {"disk/model", {"default", nullptr}},
    {"cpu/optim", {"Lazy", "TI", "Full", nullptr}},
    {"network/optim", {"Lazy", "TI", "Full", nullptr}},
};

/* Why SimGrid would refuse `value` for a model or optimisation setting `key` ("" when it would not). */
static std::string refused_name(const std::string &key, const std::string &value)
{
  for (const auto &setting : setting_names) {
    if (key != setting.key)
      continue;
    std::string known;
    for (const char *const *name = setting.names; *name; name++) {
      if (value == *name)
        return "";
      known += std::string(known.empty() ? "" : ", ") + *name;
    }
    return "SimGrid 3.32 knows " + known;
  }
  return "";
}

/* Why SimGrid refuses the setting key:value (an unknown key, a value of the wrong type or not among its names), or
 * "" when it takes it; the setting is applied, as loading the platform would apply it, unless --cfg (or simrun)
 * already set the key, which then wins, as it does when SimGrid loads the file. */
static std::string refused_setting(const std::string &key, const std::string &value)
{
  try {
    if (!simgrid::config::is_default(key.c_str()))
      return "";
  } catch (const std::out_of_range &e) {
    std::string what = e.what(); /* "Bad config key: K\nDid you mean 'k'?\nExisting config keys: ..." */
    size_t mean = what.find("Did you mean");
    return "SimGrid 3.32 has no setting of that name" +
           (mean == std::string::npos ? "" : " (" + what.substr(mean, what.find('\n', mean) - mean) + ")");
  }
  std::string why = refused_name(key, value);
  if (!why.empty())
    return why;
  try {
    simgrid::s4u::Engine::set_config(key + ":" + value);
  } catch (const std::exception &e) {
    std::string what = e.what();
    return "SimGrid 3.32 refuses the value: " + what.substr(0, what.find('\n'));
  }
  return "";
}

extern "C" int sim_check_config(const char *platform, char *err, size_t errlen)
{
  xmlDoc *doc = xmlReadFile(platform, nullptr, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (!doc)
    return 0; /* sim_check_platform_xml says what is wrong with it */
  int rc = 0;
  find_element(xmlDocGetRootElement(doc), [&](const xmlNode *node) {
    if (!named(node, "prop") || !node->parent || !named(node->parent, "config"))
      return false;
    std::string key = attribute(node, "id");
    std::string value = attribute(node, "value");
    std::string why = refused_setting(key, value);
    if (why.empty())
      return false;
    snprintf(err, errlen,
             "%s:%d: <config> setting %s = \"%s\": %s; correct or remove it (simrun --cfg=NAME:VALUE takes the same "
             "settings; SimGrid's --help-cfg lists them)",
             platform, (int)xmlGetLineNo(node), key.c_str(), value.c_str(), why.c_str());
    rc = SIM_EPLATFORM;
    return true;
  });
  xmlFreeDoc(doc);
  return rc;
}

/* SimGrid's parse errors, "Parse error at FILE:LINE: what", and the fix for those simrun knows. */
static const struct {
  const char *says;
  const char *fix;
} parse_fixes[] = {
    {"cannot parse number",
     "give a number with its unit, such as speed=\"1Gf\", bandwidth=\"1GBps\", latency=\"10us\""},
    {"COMES FROM THE FUTURE", "write version=\"4.1\", the format SimGrid 3.32 reads"},
    {"expected", "SimGrid does not take that element there: see https://simgrid.org/doc/latest/XML_reference.html"},
};

extern "C" void sim_check_explain(char *err, size_t errlen)
{
  static const char prefix[] = "Parse error at ";
  if (strncmp(err, prefix, sizeof prefix - 1) != 0)
    return;
  const char *fix = "check that line against https://simgrid.org/doc/latest/XML_reference.html";
  for (const auto &known : parse_fixes)
    if (strstr(err, known.says)) {
      fix = known.fix;
      break;
    }
  char said[1024];
  snprintf(said, sizeof said, "%s", err + sizeof prefix - 1);
  while (*said && said[strlen(said) - 1] == '.')
    said[strlen(said) - 1] = '\0';
  snprintf(err, errlen, "%s; %s", said, fix);
}

/* The first element that `xpath` finds in the platform (its line, and the line of the one before it in *earlier
 * when `second`: the second one found), or 0. */
static int line_of(const char *platform, const char *xpath, int second, int *earlier)
{
  xmlDoc *doc = xmlReadFile(platform, nullptr, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  xmlXPathContext *context = doc ? xmlXPathNewContext(doc) : nullptr;
  xmlXPathObject *found = context ? xmlXPathEvalExpression(BAD_CAST xpath, context) : nullptr;
  int line = 0;
  const xmlNodeSet *nodes = found ? found->nodesetval : nullptr;
  if (nodes && nodes->nodeNr > second) {
    line = (int)xmlGetLineNo(nodes->nodeTab[second]);
    if (second && earlier)
      *earlier = (int)xmlGetLineNo(nodes->nodeTab[0]);
  }
  xmlXPathFreeObject(found);
  xmlXPathFreeContext(context);
  xmlFreeDoc(doc);
  return line;
}

/* An id as it can sit in an XPath string literal: NULL when it holds a quote of either kind. */
static const char *literal(const char *id)
{
  return strchr(id, '\'') || strchr(id, '"') ? nullptr : id;
}

extern "C" int sim_check_host_line(const char *platform, const char *host)
{
  char xpath[700];
  if (!literal(host))
    return 0;
  snprintf(xpath, sizeof xpath,
           "//*[(local-name() = 'host' and @id = '%s') or (local-name() = 'trace_connect' and @element = '%s')]", host,
           host);
  return line_of(platform, xpath, 0, nullptr);
}

extern "C" void sim_check_locate(const char *platform, char *err, size_t errlen)
{
  static const char missing_link[] = "Link not found: ";
  static const char second_host[] = "Refusing to create a second host named '";
  char id[256] = "", xpath[700];
  int earlier = 0, line = 0;
  if (strncmp(err, missing_link, sizeof missing_link - 1) == 0 &&
      sscanf(err + sizeof missing_link - 1, "%255s", id) == 1 && literal(id)) {
    snprintf(xpath, sizeof xpath, "//*[local-name() = 'link_ctn' and @id = '%s']", id);
    if ((line = line_of(platform, xpath, 0, nullptr)) > 0)
      snprintf(err, errlen,
               "%s:%d: <link_ctn id=\"%s\"/> names a link no <link> declares; declare <link id=\"%s\" .../> (in "
               "this zone or one it holds) or fix the name",
               platform, line, id, id);
  } else if (strncmp(err, second_host, sizeof second_host - 1) == 0 &&
             sscanf(err + sizeof second_host - 1, "%255[^']", id) == 1 && literal(id)) {
    snprintf(xpath, sizeof xpath, "//*[local-name() = 'host' and @id = '%s']", id);
    if ((line = line_of(platform, xpath, 1, &earlier)) > 0)
      snprintf(err, errlen,
               "%s:%d: a second host named '%s' (the first is at line %d); give each host an id of its own", platform,
               line, id, earlier);
  }
}
