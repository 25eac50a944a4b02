/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A platform too big for its routing is refused before SimGrid loads it: a zone under Floyd routing with more than
 * STU_FLOYD_MAX hosts, routers and zones, whatever else the platform holds. The platforms are written here. */
#define _DEFAULT_SOURCE /* mkstemps */

#include "sim_error.h"
#include "stu_routing.h"
#include "tu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[256];

/* Writes a platform: a root zone routed by `root` holding `subzones` zones routed by `inner` of `hosts` hosts each (or,
 * with subzones 0, `hosts` hosts of its own). The root zone opens on line 3. */
static void write_platform(const char *root, size_t subzones, const char *inner, size_t hosts)
{
  snprintf(path, sizeof path, "/tmp/simrun-routing-XXXXXX.xml");
  int fd = mkstemps(path, 4);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fprintf(f, "<?xml version=\"1.0\"?>\n<platform version=\"4.1\">\n<zone id=\"root\" routing=\"%s\">\n", root);
  for (size_t z = 0; z < (subzones ? subzones : 1); z++) {
    if (subzones)
      fprintf(f, "<zone id=\"z%zu\" routing=\"%s\">\n", z, inner);
    for (size_t h = 0; h < hosts; h++)
      fprintf(f, "<host id=\"h%zu-%zu\" speed=\"1Gf\"/>\n", z, h);
    if (subzones)
      fputs("</zone>\n", f);
  }
  fputs("</zone>\n</platform>\n", f);
  fclose(f);
}

static int check(char *err, size_t len)
{
  err[0] = '\0';
  int rc = stu_routing_check(path, err, len);
  unlink(path);
  return rc;
}

/* One more host than Floyd's limit: refused at the zone's line, with the size, the limit and the routing to use. */
static void test_stu_routing_floyd_over_the_limit(void)
{
  char err[1024], head[400];
  write_platform("Floyd", 0, NULL, STU_FLOYD_MAX + 1);
  snprintf(head, sizeof head, "%s:3: zone 'root' has %d hosts, routers and zones under routing=\"Floyd\"", path,
           STU_FLOYD_MAX + 1);
  CU_ASSERT_EQUAL(check(err, sizeof err), SIM_EPLATFORM);
  CU_ASSERT_NSTRING_EQUAL(err, head, strlen(head));
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "Floyd routing is for at most 4096: use routing=\"DijkstraCache\""));
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "would take 0.4 GB")); /* 24 * 4097^2 bytes */
}

/* At the limit, under another routing, or spread over sub-zones (the root's tables hold its own children only): all
 * accepted. A file that is not XML is left to SimGrid. */
static void test_stu_routing_accepted(void)
{
  char err[1024];
  write_platform("Floyd", 0, NULL, STU_FLOYD_MAX);
  CU_ASSERT_EQUAL(check(err, sizeof err), 0);
  write_platform("DijkstraCache", 0, NULL, 3 * STU_FLOYD_MAX);
  CU_ASSERT_EQUAL(check(err, sizeof err), 0);
  write_platform("Floyd", 3, "Full", STU_FLOYD_MAX);
  CU_ASSERT_EQUAL(check(err, sizeof err), 0);
  write_platform("Full", 2, "Floyd", STU_FLOYD_MAX + 1); /* but a sub-zone over the limit is not */
  CU_ASSERT_EQUAL(check(err, sizeof err), SIM_EPLATFORM);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, ":4: zone 'z0' has 4097 hosts"));
  snprintf(path, sizeof path, "/dev/null");
  CU_ASSERT_EQUAL(stu_routing_check(path, err, sizeof err), 0);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_stu_routing_floyd_over_the_limit", test_stu_routing_floyd_over_the_limit},
                                    {"test_stu_routing_accepted", test_stu_routing_accepted},
                                    {NULL, NULL}};
  return tu_run("stu_routing", cases);
}
