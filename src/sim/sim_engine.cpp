/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The SimGrid boundary in C++: exceptions from platform loading become messages, and the platform's per-message
 * time T(l, d) (for the T800, seed 001 eq. 4) is installed through SimGrid's latency-factor hook, exactly. */
#include "sim_engine.h"
#include "sim_error.h"
#include "sim_grid.h"
#include "sim_ucontext.h"

#include <simgrid/engine.h>
#include <simgrid/kernel/resource/NetworkModelIntf.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <simgrid/zone.h>
#include <xbt/config.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

XBT_LOG_NEW_DEFAULT_CATEGORY(sim_engine, "simrun: SimGrid engine set-up");

namespace
{
std::vector<simgrid::s4u::Host *> sorted_hosts;
std::unordered_set<const simgrid::s4u::Host *> speed_changed; /* the hosts whose speed changed during the run */

/* Compares two runs of digits by value, however long (a host named with 25 digits overflowed std::stoull, which
 * threw out of the sort and aborted the process): without leading zeros, the longer is larger, else the text decides.
 */
int compare_digits(std::string_view a, std::string_view b)
{
  std::string_view x = a.substr(std::min(a.find_first_not_of('0'), a.size()));
  std::string_view y = b.substr(std::min(b.find_first_not_of('0'), b.size()));
  if (x.size() != y.size())
    return x.size() < y.size() ? -1 : 1;
  return x.compare(y);
}

/* Natural order: digit runs compare by value, so that n2 < n10 and mesh names sort row by row. */
bool natural_less(const std::string &a, const std::string &b)
{
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (isdigit((unsigned char)a[i]) && isdigit((unsigned char)b[j])) {
      size_t i0 = i;
      size_t j0 = j;
      while (i < a.size() && isdigit((unsigned char)a[i]))
        i++;
      while (j < b.size() && isdigit((unsigned char)b[j]))
        j++;
      /* views, not copies: a platform's hosts are sorted in every process of a run */
      int order = compare_digits(std::string_view(a).substr(i0, i - i0), std::string_view(b).substr(j0, j - j0));
      if (order != 0)
        return order < 0;
    } else {
      if (a[i] != b[j])
        return a[i] < b[j];
      i++;
      j++;
    }
  }
  return a.size() - i < b.size() - j;
}
std::vector<std::string> user_options; /* sim_engine_add_option's, in order */

/* simgrid_init with simrun's options, then the user's (SimGrid applies them in order: the user's win). Returns 0, or
 * SIM_EINVAL with SimGrid's objection to a user's option (an unknown --cfg name, a bad value) in err. */
int init_simgrid(const char *const *defaults, size_t count, char *err, size_t errlen)
{
  std::vector<char *> argv;
  for (size_t i = 0; i < count; i++)
    argv.push_back(const_cast<char *>(defaults[i]));
  for (auto &option : user_options)
    argv.push_back(option.data());
  argv.push_back(nullptr);
  int argc = (int)argv.size() - 1;
  try {
    simgrid_init(&argc, argv.data());
  } catch (const std::exception &e) {
    std::string what = e.what();
    what = what.substr(0, what.find('\n')); /* its first line: SimGrid may list every key after it */
    snprintf(err, errlen, "a --cfg or --log option: %s; see SimGrid's --help-cfg", what.c_str());
    return SIM_EINVAL;
  }
  return 0;
}
} // namespace

namespace
{
std::string pending_config; /* sim_engine_configure's settings, applied by the next sim_engine_start */

/* Applies each blank-separated name:value of pending_config; SimGrid throws on a name or value it refuses. */
void apply_pending_config()
{
  size_t start = 0;
  while ((start = pending_config.find_first_not_of(' ', start)) != std::string::npos) {
    size_t end = pending_config.find(' ', start);
    simgrid::s4u::Engine::set_config(pending_config.substr(start, end - start));
    start = end;
  }
}
} // namespace

extern "C" void sim_engine_configure(const char *settings)
{
  pending_config = settings ? settings : "";
}

extern "C" int sim_engine_add_option(const char *option)
{
  try {
    user_options.emplace_back(option);
  } catch (const std::bad_alloc &) {
    return SIM_ENOMEM;
  }
  return 0;
}

extern "C" int sim_engine_init(char *err, size_t errlen)
{
  static bool done = false;
  if (done)
    return 0;
  /* Quiet by default (STYLE.md); stacks of 128 KiB are plenty for our actors and let thousands of ranks fit. A
   * deadlock (ranks whose messages never match) is reported by sim_replay in one line of its own: SimGrid's notice of
   * it is silenced. AddressSanitizer cannot follow SimGrid's hand-made stack switches (its default, raw contexts):
   * sanitised builds run actors as ucontexts, whose switches sim_ucontext.c shows it (the call links its swapcontext
   * into the program; threads, ASan's other way, if it ever said no). */
  const char *argv[] = {"simrun",
                        "--log=root.thres:critical",
                        "--log=ker_engine.app:file:/dev/null",
                        "--cfg=contexts/stack-size:128",
#ifdef SIM_ASAN
                        sim_ucontext_shown() ? "--cfg=contexts/factory:ucontext" : "--cfg=contexts/factory:thread",
#endif
                        nullptr};
  if (int rc = init_simgrid(argv, sizeof argv / sizeof argv[0] - 1, err, errlen))
    return rc;
  try {
    apply_pending_config();
  } catch (const std::exception &e) {
    snprintf(err, errlen, "%s", e.what());
    return SIM_EPLATFORM;
  }
  done = true;
  return 0;
}

extern "C" int sim_engine_start(const char *platform, char *err, size_t errlen)
{
  if (int rc = sim_engine_init(err, errlen))
    return rc;
  try {
    simgrid_load_platform(platform);
    if (sim_grid_build(err, errlen) != 0)
      return SIM_EPLATFORM;
    simgrid::s4u::Engine::get_instance()->seal_platform(); /* routes (Floyd's tables) exist only once sealed */
  } catch (const std::exception &e) {
    snprintf(err, errlen, "%s", e.what());
    return SIM_EPLATFORM;
  }
  simgrid::s4u::Host::on_speed_change_cb([](const simgrid::s4u::Host &host) { speed_changed.insert(&host); });

  sorted_hosts = simgrid::s4u::Engine::get_instance()->get_all_hosts();
  std::sort(sorted_hosts.begin(), sorted_hosts.end(), [](const simgrid::s4u::Host *a, const simgrid::s4u::Host *b) {
    return natural_less(a->get_name(), b->get_name());
  });
  if (sorted_hosts.empty()) {
    snprintf(err, errlen, "the platform declares no host; add a <host> (or a <cluster>) to one of its zones");
    return SIM_EPLATFORM;
  }
  XBT_VERB("platform %s loaded: %zu hosts", platform, sorted_hosts.size());
  return 0;
}

/* A platform's extra cost of crossing some links (sim_engine_set_route_extra): the function, its model, and the
 * number each link carries in its property. */
namespace
{
sim_route_extra_fn route_extra = nullptr;
const void *route_extra_model = nullptr;
std::unordered_map<const simgrid::s4u::Link *, double> link_extra;
} // namespace

static std::string physical_link(const simgrid::s4u::Link *link);

/* Property `name` of a link; a split-duplex link keeps the properties of its XML element, not its two directions. */
static const char *link_property_value(const simgrid::s4u::Link *link, const char *name)
{
  std::string physical = physical_link(link);
  if (physical == link->get_name())
    return link->get_property(name);
  try {
    return simgrid::s4u::Engine::get_instance()->split_duplex_link_by_name(physical)->get_property(name);
  } catch (const std::exception &) { /* a link named like a direction of a split-duplex link, without one */
    return link->get_property(name);
  }
}

/* What route_extra adds to a message of `size` bytes over `links`, in seconds; 0 without one. */
static double route_extra_time(double size, const std::vector<simgrid::s4u::Link *> &links)
{
  if (!route_extra)
    return 0;
  static std::vector<double> values; /* one per hop, reused: this runs for every message */
  values.clear();
  for (const auto *link : links) {
    auto found = link_extra.find(link);
    values.push_back(found == link_extra.end() ? 0 : found->second);
  }
  return route_extra(route_extra_model, size, values.data(), (int)values.size());
}

extern "C" int sim_engine_set_route_extra(sim_route_extra_fn fn, const void *model, const char *link_property,
                                          char *err, size_t errlen)
{
  link_extra.clear();
  for (const auto *link : simgrid::s4u::Engine::get_instance()->get_all_links()) {
    const char *text = link_property_value(link, link_property);
    if (!text)
      continue;
    char *end = nullptr;
    double value = strtod(text, &end);
    if (end == text || *end != '\0' || !(value >= 0 && value < 1e9)) {
      snprintf(err, errlen, "link %s: property %s = \"%s\": expected a number >= 0", physical_link(link).c_str(),
               link_property, text);
      return SIM_EPLATFORM;
    }
    link_extra[link] = value;
  }
  route_extra = fn;
  route_extra_model = model;
  return 0;
}

namespace
{
sim_msg_time_fn msg_time = nullptr; /* sim_engine_set_msg_time's, or none */
const void *msg_time_model = nullptr;

met_net_t alone_net; /* sim_engine_alone_prepare's */

/* The latency factor that makes SimGrid's latency * factor + size / bandwidth the platform's T(l, d) from src to dst
 * plus the route's extra, on a route of `links` links whose latencies sum to `latency` and whose smallest bandwidth is
 * `bandwidth`. */
double msg_time_factor(double size, const simgrid::s4u::Host *src, const simgrid::s4u::Host *dst, int links,
                       double latency, double bandwidth, double extra)
{
  double time = links == 0 || latency <= 0 ? NAN : msg_time(msg_time_model, size, links, src, dst);
  return std::isnan(time) ? 1.0 : std::max(time + extra - size / bandwidth, 0.0) / latency;
}

/* SMPI's "bound:value;bound:value..." into at most MET_NET_STEPS steps sorted by bound; false when malformed. */
bool parse_steps(const std::string &text, met_net_step_t *steps, int *count)
{
  *count = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(';', start);
    std::string item = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    char *after = nullptr;
    double bound = strtod(item.c_str(), &after);
    if (*after != ':' || *count == MET_NET_STEPS)
      return false;
    double value = strtod(after + 1, &after);
    if (*after != '\0')
      return false;
    steps[(*count)++] = {bound, value};
    start = end == std::string::npos ? text.size() : end + 1;
  }
  std::sort(steps, steps + *count, [](const met_net_step_t &a, const met_net_step_t &b) { return a.bound < b.bound; });
  return *count > 0;
}

/* Why simrun cannot price a message as the network model `model` does under host model `host`, or "" when it can. */
std::string unfollowed(const std::string &model, const std::string &host)
{
  if (host != "default" && host != "compound")
    return "host/model:" + host + " prices communications with its own network model, not network/model's";
  if (model == "IB")
    return "SimGrid's IB model slows each message by the number of flows at its hosts' ports, which simrun's "
           "models do not count; use network/model:CM02, LV08 or SMPI for them";
  if (model != "CM02" && model != "LV08" && model != "SMPI")
    return "simrun prices messages as SimGrid's CM02, LV08 and SMPI models do, not " + model +
           "; use network/model:CM02, LV08 or SMPI for them";
  return "";
}
} // namespace

/* The latency SimGrid is given on a link that has none under a message model: the model's whole time is charged as
 * latency x factor, so a route needs some latency to scale, and its value does not matter (the factor cancels it). */
constexpr double msg_model_latency = 1e-9;

extern "C" void sim_engine_set_msg_time(sim_msg_time_fn time_fn, const void *model)
{
  msg_time = time_fn;
  msg_time_model = model;
  for (auto *link : simgrid::s4u::Engine::get_instance()->get_all_links())
    if (link->get_latency() <= 0)
      link->set_latency(msg_model_latency);
  auto *netmodel = simgrid::s4u::Engine::get_instance()->get_netzone_root()->get_network_model();
  netmodel->set_lat_factor_cb([](double size, const simgrid::s4u::Host *src, const simgrid::s4u::Host *dst,
                                 const std::vector<simgrid::s4u::Link *> &links,
                                 const std::unordered_set<simgrid::s4u::NetZone *> &) {
    double latency = 0;
    double bandwidth = 0;
    for (const auto *link : links) {
      latency += link->get_latency();
      bandwidth = bandwidth == 0 ? link->get_bandwidth() : std::min(bandwidth, link->get_bandwidth());
    }
    /* SimGrid charges latency * factor + size / bandwidth: choose the factor that makes the sum T(l, d). */
    return msg_time_factor(size, src, dst, (int)links.size(), latency, bandwidth, route_extra_time(size, links));
  });
}

extern "C" void sim_engine_net(met_net_t *net)
{
  namespace cfg = simgrid::config;
  *net = (met_net_t){};
  std::string model = cfg::get_value<std::string>("network/model");
  snprintf(net->model, sizeof net->model, "%s", model.c_str());
  net->tcp_gamma = cfg::get_value<double>("network/TCP-gamma");
  net->crosstraffic = cfg::get_value<bool>("network/crosstraffic");
  std::string why = unfollowed(model, cfg::get_value<std::string>("host/model"));
  if (why.empty() && model == "SMPI") {
    if (!parse_steps(cfg::get_value<std::string>("smpi/lat-factor"), net->lat, &net->nlat) ||
        !parse_steps(cfg::get_value<std::string>("smpi/bw-factor"), net->bw, &net->nbw))
      why = "smpi/lat-factor or smpi/bw-factor is not a list of at most 32 bytes:factor items";
  } else if (why.empty()) { /* LV08's factors are the defaults it sets: 13.01 and 0.97 */
    net->lat[0] = {-1, cfg::get_value<double>("network/latency-factor")};
    net->bw[0] = {-1, cfg::get_value<double>("network/bandwidth-factor")};
    net->nlat = net->nbw = 1;
  }
  net->priced = why.empty();
  snprintf(net->reason, sizeof net->reason, "%s", why.c_str());
}

extern "C" int sim_engine_alone_prepare(char *err, size_t errlen)
{
  sim_engine_net(&alone_net);
  if (alone_net.priced)
    return 0;
  snprintf(err, errlen, "network = analytic prices a message as SimGrid's network model would, not under %s: %s",
           alone_net.model, alone_net.reason);
  return SIM_EPARAM;
}

/* The bandwidth a message alone gets from `route` under SimGrid's max-min sharing (network_cm02.cpp): each link's
 * bandwidth over the message's weight on it, 1 for each time the route crosses a shared link (1 in all on a fatpipe)
 * and, with network/crosstraffic, 0.05 more for each time its reverse route `back` does (empty without); the
 * smallest. WIFI links are left out, as SimGrid leaves them out of the bound. 0 for no link. */
template <typename Link> static double lone_bandwidth(const std::vector<Link *> &route, const std::vector<Link *> &back)
{
  using Policy = simgrid::s4u::Link::SharingPolicy;
  std::vector<std::pair<const simgrid::s4u::Link *, double>> weights; /* a route has a few links: a list will do */
  auto add = [&weights](const simgrid::s4u::Link *link, double weight) {
    if (link->get_sharing_policy() == Policy::WIFI)
      return;
    for (auto &[known, sum] : weights)
      if (known == link) {
        sum = link->get_sharing_policy() == Policy::FATPIPE ? std::max(sum, weight) : sum + weight;
        return;
      }
    weights.emplace_back(link, weight);
  };
  for (const auto *link : route)
    add(link, 1.0);
  for (const auto *link : back)
    add(link, 0.05);
  double bandwidth = 0;
  for (const auto &[link, weight] : weights)
    bandwidth = bandwidth == 0 ? link->get_bandwidth() / weight : std::min(bandwidth, link->get_bandwidth() / weight);
  return bandwidth;
}

/* Whether SimGrid loads a message's reverse route too (network/crosstraffic). */
static bool crosstraffic()
{
  return simgrid::config::get_value<bool>("network/crosstraffic");
}

extern "C" void sim_engine_route_figures(const_sg_host_t a, const_sg_host_t b, sim_route_t *route)
{
  std::vector<simgrid::s4u::Link *> links;
  std::vector<simgrid::s4u::Link *> back;
  *route = (sim_route_t){0, 0, 0, 0};
  a->route_to(b, links, &route->latency);
  if (crosstraffic())
    b->route_to(a, back, nullptr);
  route->links = (int)links.size();
  route->hops = a == b ? 0 : route->links;
  route->bandwidth = lone_bandwidth(links, back);
}

/* Whether `link` carries only a host's messages to itself: SimGrid's own (__loopback__) or a <cluster>'s loopback_bw
 * link, named ID_link_N_loopback. */
static bool loopback_link(const simgrid::s4u::Link *link)
{
  const std::string &name = link->get_name();
  static const std::string suffix = "_loopback";
  return name.rfind("__", 0) == 0 ||
         (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0);
}

extern "C" int sim_engine_self_links(const_sg_host_t host, char *names, size_t len)
{
  std::vector<simgrid::s4u::Link *> links, out;
  double latency = 0;
  bool alone = true; /* no other host: the links that are no loopback's are the host's own */
  try {
    host->route_to(host, links, &latency);
    for (const auto *other : simgrid::s4u::Engine::get_instance()->get_all_hosts())
      if (other != host) {
        host->route_to(other, out, &latency);
        alone = false;
        break;
      }
  } catch (const std::exception &) { /* no route (Floyd's throw): nothing to say of it */
    return 0;
  }
  bool shared = false;
  for (const auto *link : links)
    shared |= alone ? !loopback_link(link) : std::find(out.begin(), out.end(), link) != out.end();
  int n = 0;
  size_t used = 0;
  if (len > 0)
    names[0] = '\0';
  for (const auto *link : links)
    if (shared && !loopback_link(link)) {
      if (used < len)
        used += (size_t)snprintf(names + used, len - used, "%s%s", n ? ", " : "", link->get_cname());
      n++;
    }
  return n;
}

extern "C" double sim_engine_alone_time(const_sg_host_t a, const_sg_host_t b, const sim_route_t *route, double bytes)
{
  if (route->links == 0)
    return 0;
  if (!msg_time)
    return met_net_time(&alone_net, route->latency, route->bandwidth, bytes);
  double extra = 0;
  if (route_extra) { /* crossing links: looked up per message (small machines; docs/scale.md) */
    std::vector<simgrid::s4u::Link *> links;
    double latency = 0;
    a->route_to(b, links, &latency);
    extra = route_extra_time(bytes, links);
  }
  double factor = msg_time_factor(bytes, a, b, route->links, route->latency, route->bandwidth, extra);
  return route->latency * factor + bytes / met_net_rate(&alone_net, route->latency, route->bandwidth, bytes);
}

extern "C" size_t sim_engine_host_count(void)
{
  return sorted_hosts.size();
}

extern "C" sg_host_t sim_engine_host(size_t index)
{
  return index < sorted_hosts.size() ? sorted_hosts[index] : nullptr;
}

/* The two hosts each link joins, from the routes of one link between hosts (built at the first use). */
static const std::unordered_map<const simgrid::s4u::Link *, std::pair<sg_host_t, sg_host_t>> &link_ends()
{
  static std::unordered_map<const simgrid::s4u::Link *, std::pair<sg_host_t, sg_host_t>> ends;
  static bool built = false;
  if (!built) {
    for (auto *a : sorted_hosts)
      for (auto *b : sorted_hosts) {
        std::vector<simgrid::s4u::Link *> links;
        double latency = 0;
        if (a != b)
          a->route_to(b, links, &latency);
        if (links.size() == 1)
          ends.emplace(links[0], std::make_pair(a, b));
      }
    built = true;
  }
  return ends;
}

extern "C" int sim_engine_route_links(const_sg_host_t a, const_sg_host_t b, const_sg_link_t *out, int max)
{
  int native = sim_grid_route_links(a, b, out, max); /* two hosts of a native zone: by arithmetic */
  if (native >= 0)
    return native;
  static std::vector<simgrid::s4u::Link *> links; /* reused: sg_host_get_route's vector and dynar cost more */
  links.clear();
  a->route_to(b, links, nullptr);
  for (size_t i = 0; i < links.size() && (int)i < max; i++)
    out[i] = links[i];
  return (int)links.size();
}

extern "C" int sim_engine_route_hosts(const_sg_host_t a, const_sg_host_t b, sg_host_t *out, int max)
{
  std::vector<simgrid::s4u::Link *> links;
  double latency = 0;
  if (a == b)
    return 0;
  a->route_to(b, links, &latency);
  const auto &ends = link_ends();
  const_sg_host_t at = a;
  int n = 0;
  for (size_t i = 0; i + 1 < links.size() && n < max; i++) {
    auto found = ends.find(links[i]);
    if (found == ends.end())
      break;
    sg_host_t next = found->second.first == at ? found->second.second : found->second.first;
    out[n++] = next;
    at = next;
  }
  return n;
}

extern "C" int sim_engine_hops(const_sg_host_t a, const_sg_host_t b)
{
  if (a == b)
    return 0;
  int native = sim_grid_route_links(a, b, nullptr, 0);
  if (native >= 0)
    return native;
  std::vector<simgrid::s4u::Link *> links;
  double latency = 0;
  a->route_to(b, links, &latency);
  return (int)links.size();
}

/* A split-duplex link is one physical link: SimGrid routes over its two directions, named <id>_UP and <id>_DOWN. */
static std::string physical_link(const simgrid::s4u::Link *link)
{
  std::string name = link->get_name();
  for (const std::string suffix : {"_UP", "_DOWN"})
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      return name.substr(0, name.size() - suffix.size());
  return name;
}

extern "C" int sim_engine_links_between(const sg_host_t *hosts, size_t count)
{
  int counted = sim_grid_links_between(hosts, count); /* native meshes: from the coordinates, no route looked up */
  if (counted >= 0)
    return counted;
  /* Pairs in order of their distance in the host list (a, a + 1 first, then a, a + 2, ...): on meshes the list is in
   * snake order, so near pairs have short routes, and every link is on the route of some near pair. The loop stops
   * once every physical link of the platform is on some route, since no further route can add one; otherwise it
   * looks at all n^2 / 2 pairs. */
  std::unordered_set<std::string> all;
  for (const auto *link : simgrid::s4u::Engine::get_instance()->get_all_links())
    if (link->get_name().rfind("__", 0) != 0) /* SimGrid's own, such as __loopback__, are on no route between hosts */
      all.insert(physical_link(link));
  std::unordered_set<const simgrid::s4u::Link *> seen;
  std::unordered_set<std::string> used;
  std::vector<simgrid::s4u::Link *> links;
  for (size_t gap = 1; gap < count && used.size() < all.size(); gap++)
    for (size_t a = 0; a + gap < count; a++) {
      links.clear();
      double latency = 0;
      hosts[a]->route_to(hosts[a + gap], links, &latency);
      for (const auto *link : links)
        if (seen.insert(link).second)
          used.insert(physical_link(link));
    }
  return (int)used.size();
}

extern "C" const char *sim_engine_property(const char *name)
{
  return sg_zone_get_property_value(sg_zone_get_root(), name);
}

extern "C" double sim_engine_run(void)
{
  simgrid_run();
  return simgrid_get_clock();
}

extern "C" int sim_engine_speed_changed(const_sg_host_t host)
{
  return speed_changed.count(host) > 0;
}

extern "C" const char *sim_engine_host_property(const_sg_host_t host, const char *name, const char **owner)
{
  if (const char *value = host->get_property(name)) {
    *owner = host->get_cname();
    return value;
  }
  /* upwards to the root zone, whose get_parent() is not to be called (SimGrid 3.32 dereferences its null parent) */
  const auto *root = simgrid::s4u::Engine::get_instance()->get_netzone_root();
  for (const auto *zone = host->get_englobing_zone();; zone = zone->get_parent()) {
    if (const char *value = zone->get_property(name)) {
      *owner = zone->get_cname();
      return value;
    }
    if (zone == root)
      return nullptr;
  }
}

/* The links of the route from a to b into `links`, in route order, their latencies added to *latency one by one in
 * that order, as SimGrid's lookup adds them: by arithmetic between two hosts of one native zone (sim_grid.h), else
 * SimGrid's route. */
static void route_of(const_sg_host_t a, const_sg_host_t b, std::vector<const simgrid::s4u::Link *> &links,
                     double *latency)
{
  int native = sim_grid_route_links(a, b, nullptr, 0);
  if (native < 0) {
    std::vector<simgrid::s4u::Link *> found;
    a->route_to(b, found, latency);
    links.assign(found.begin(), found.end());
    return;
  }
  links.resize((size_t)native);
  sim_grid_route_links(a, b, links.data(), native);
  for (const auto *link : links)
    *latency += link->get_latency();
}

extern "C" void sim_engine_route(const_sg_host_t a, const_sg_host_t b, double *latency, double *bandwidth)
{
  static std::vector<const simgrid::s4u::Link *> links; /* reused: the models ask for 4096 pairs' */
  static std::vector<const simgrid::s4u::Link *> back;
  double back_latency = 0;
  *latency = 0;
  route_of(a, b, links, latency);
  back.clear();
  if (crosstraffic() && a != b)
    route_of(b, a, back, &back_latency);
  *bandwidth = lone_bandwidth(links, back);
}
