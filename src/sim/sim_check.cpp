/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Platform checks before a sweep: SimGrid aborts the process (xbt_die, "The Impossible Did Happen") on a host of speed
 * 0, a link of bandwidth 0 or a send between hosts with no route, and its parse errors have no column and no fix;
 * these checks turn each into a message with the place and the fix instead (libxml2 reads the file first). */
#include "sim_check.h"
#include "sim_engine.h"
#include "sim_error.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include <libxml/parser.h>
#include <libxml/xmlerror.h>

#include <simgrid/host.h>
#include <simgrid/link.h>
#include <xbt/dynar.h>

/* A mesh coordinate (simrun:row, simrun:col), which the mapper reads with atoi: a whole number from 0 to 65535. */
static int check_coordinate(const_sg_host_t host, const char *name, char *err, size_t errlen)
{
  const char *text = sg_host_get_property_value(host, name);
  char *end = nullptr;
  long value = text ? strtol(text, &end, 10) : 0;
  if (!text || (end != text && *end == '\0' && value >= 0 && value <= 65535))
    return 0;
  snprintf(err, errlen, "host '%s': property %s = \"%s\"; give a whole number from 0 to 65535", sg_host_get_name(host),
           name, text);
  return SIM_EPLATFORM;
}

static int check_hosts(char *err, size_t errlen)
{
  for (size_t i = 0; i < sim_engine_host_count(); i++) {
    const_sg_host_t host = sim_engine_host(i);
    if (check_coordinate(host, "simrun:row", err, errlen) || check_coordinate(host, "simrun:col", err, errlen))
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

/* The name of a link the route `links` passes twice, or NULL: a message would share bandwidth with itself. */
static const char *repeated_link(const_xbt_dynar_t links)
{
  unsigned long n = xbt_dynar_length(links);
  for (unsigned long i = 0; i < n; i++)
    for (unsigned long j = i + 1; j < n; j++)
      if (xbt_dynar_get_as(links, i, sg_link_t) == xbt_dynar_get_as(links, j, sg_link_t))
        return sg_link_get_name(xbt_dynar_get_as(links, i, sg_link_t));
  return nullptr;
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
 * host cut off from the rest, though not a route missing in one direction between two others. */
static int check_routes(char *err, size_t errlen)
{
  size_t n = sim_engine_host_count();
  size_t sources = n <= SIM_CHECK_ALL_PAIRS_MAX ? n : 1;
  xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
  int rc = 0;
  for (size_t a = 0; rc == 0 && a < sources; a++)
    for (size_t b = 0; rc == 0 && b < n; b++)
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

/* Every value finite and at most SIM_CHECK_MAX_US in size, and the first `nonnegative` of them >= 0. */
static int check_values(const char *name, const double *values, int count, int nonnegative, char *err, size_t errlen)
{
  for (int i = 0; i < count; i++)
    if (!(std::fabs(values[i]) <= SIM_CHECK_MAX_US) || (i < nonnegative && std::signbit(values[i]))) {
      snprintf(err, errlen, "platform property %s: value %d is %g; give numbers from %s to 1e12%s", name, i + 1,
               values[i], i < nonnegative ? "0" : "-1e12",
               i < nonnegative ? " (a cost or a size is not negative)" : "");
      return SIM_EPLATFORM;
    }
  return 0;
}

extern "C" int sim_check_machine(const sim_machine_t *m, char *err, size_t errlen)
{
  /* The fitted coefficients of eq. 4 may be negative (the T800's large-message alpha is -81.5 us); a size or a cost
   * of initialising a link may not. */
  int rc = check_values("simrun:comm-packet-bytes", &m->msg.packet_bytes, 1, 1, err, errlen);
  rc = rc ? rc : check_values("simrun:comm-small-us", m->msg.small, 4, 0, err, errlen);
  rc = rc ? rc : check_values("simrun:comm-large-us", m->msg.large, 4, 0, err, errlen);
  rc = rc ? rc : check_values("simrun:link-init-us", &m->link_init_us, 1, 1, err, errlen);
  rc = rc ? rc : check_values("simrun:io-input-us", m->input_us, 2, 2, err, errlen); /* eqs. 5-6: costs */
  return rc ? rc : check_values("simrun:io-output-us", m->output_us, 2, 2, err, errlen);
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

/* What SimGrid's parser would say without a line, a column or a fix: not XML at all, XML that is not a platform (a
 * scenario), a platform without the DOCTYPE line SimGrid's parser needs. */
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
  else
    rc = 0;
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
