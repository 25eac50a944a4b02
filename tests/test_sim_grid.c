/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Native grids: the links between a set of hosts counted from their coordinates (sim_grid_links_between) against hand
 * counts and against the union of SimGrid's own routes between every two of them, on a native 12 x 10 mesh; every
 * pair's route found by arithmetic (sim_grid_route_links, and sim_engine_hops and sim_engine_route, which use it)
 * against SimGrid's own lookup, on that mesh and, in a process of its own, on a native 5 x 4 torus beside a 3:2 fat
 * tree. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */

#include "sim_engine.h"
#include "sim_grid.h"
#include "plt_topo.h"
#include "tu.h"

#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xbt/dynar.h>

#define ROWS 12
#define COLS 10

static sg_host_t at(int row, int col)
{
  return sim_engine_host((size_t)(row * COLS + col)); /* natural name order is row by row */
}

/* Hand counts: a route runs along the upper host's row, then down the lower host's column. */
static void test_sim_grid_links_hand_counts(void)
{
  sg_host_t one[] = {at(3, 4)};
  CU_ASSERT_EQUAL(sim_grid_links_between(one, 1), 0);
  sg_host_t block[] = {at(0, 0), at(0, 1), at(1, 0), at(1, 1)};
  CU_ASSERT_EQUAL(sim_grid_links_between(block, 4), 4);
  sg_host_t pair[] = {at(2, 3), at(0, 0)};
  CU_ASSERT_EQUAL(sim_grid_links_between(pair, 2), 3 + 2); /* row 0 from column 0 to 3, column 3 from row 0 to 2 */
  /* (0,0)-(2,3): 3 + 2; (0,0)-(2,0): column 0, 2; (2,0)-(2,3): row 2, 3; all distinct */
  sg_host_t corner[] = {at(0, 0), at(2, 3), at(2, 0)};
  CU_ASSERT_EQUAL(sim_grid_links_between(corner, 3), 10);
  sg_host_t all[ROWS * COLS];
  for (int i = 0; i < ROWS * COLS; i++)
    all[i] = sim_engine_host((size_t)i);
  CU_ASSERT_EQUAL(sim_grid_links_between(all, ROWS * COLS), ROWS * (COLS - 1) + (ROWS - 1) * COLS);
}

/* The distinct physical links (a split-duplex link's two directions are one) on SimGrid's routes between every two. */
static int links_on_routes(const sg_host_t *hosts, int count)
{
  char **seen = NULL;
  int nseen = 0;
  xbt_dynar_t route = xbt_dynar_new(sizeof(sg_link_t), NULL);
  for (int a = 0; a < count; a++)
    for (int b = a + 1; b < count; b++) {
      xbt_dynar_reset(route);
      sg_host_get_route(hosts[a], hosts[b], route);
      for (unsigned long i = 0; i < xbt_dynar_length(route); i++) {
        char name[128];
        snprintf(name, sizeof name, "%s", sg_link_get_name(xbt_dynar_get_as(route, i, sg_link_t)));
        char *suffix = strrchr(name, '_');
        if (suffix)
          *suffix = '\0';
        int known = 0;
        for (int k = 0; k < nseen && !known; k++)
          known = strcmp(seen[k], name) == 0;
        if (!known) {
          seen = realloc(seen, (size_t)(nseen + 1) * sizeof *seen);
          seen[nseen++] = strdup(name);
        }
      }
    }
  xbt_dynar_free(&route);
  for (int k = 0; k < nseen; k++)
    free(seen[k]);
  free(seen);
  return nseen;
}

/* Random sets of 2 to 20 hosts (a fixed seed) and compact snake partitions of 2 to 40 ranks. */
static void test_sim_grid_links_match_routes(void)
{
  srand(20);
  sg_host_t hosts[ROWS * COLS];
  int wrong = 0;
  for (int trial = 0; trial < 60; trial++) {
    int count = 0; /* 2 to 20 distinct hosts, as ranks are */
    for (int want = 2 + rand() % 19; count < want;) {
      sg_host_t host = sim_engine_host((size_t)(rand() % (ROWS * COLS)));
      int dup = 0;
      for (int i = 0; i < count; i++)
        dup |= hosts[i] == host;
      if (!dup)
        hosts[count++] = host;
    }
    int grid = sim_grid_links_between(hosts, (size_t)count);
    int routes = links_on_routes(hosts, count);
    if (grid != routes)
      fprintf(stderr, "%d hosts: %d links counted, %d on the routes\n", count, grid, routes);
    wrong += grid != routes;
  }
  for (int p = 2; p <= 40; p++) {
    int cols = 1;
    while (cols * cols < p)
      cols++;
    for (int rank = 0; rank < p; rank++) {
      int row = rank / cols;
      int col = row % 2 == 0 ? rank % cols : cols - 1 - rank % cols;
      hosts[rank] = at(row, col);
    }
    wrong += sim_grid_links_between(hosts, (size_t)p) != links_on_routes(hosts, p);
  }
  CU_ASSERT_EQUAL(wrong, 0);
}

/* The pairs of hosts whose route by arithmetic differs from SimGrid's (links, their order, hops, latency summed,
 * smallest bandwidth), or that have one though not in one native zone. */
static int routes_differ(void)
{
  size_t n = sim_engine_host_count();
  xbt_dynar_t route = xbt_dynar_new(sizeof(sg_link_t), NULL);
  int wrong = 0;
  for (size_t a = 0; a < n; a++)
    for (size_t b = 0; b < n; b++) {
      sg_host_t x = sim_engine_host(a);
      sg_host_t y = sim_engine_host(b);
      const_sg_link_t links[64];
      int count = sim_grid_route_links(x, y, links, 64);
      if (a == b || sim_grid_native_zone(x) != sim_grid_native_zone(y)) {
        wrong += count != -1;
        continue;
      }
      xbt_dynar_reset(route);
      sg_host_get_route(x, y, route);
      int same = count == (int)xbt_dynar_length(route) && count == sim_engine_hops(x, y);
      double bandwidth = 0;
      for (int i = 0; same && i < count; i++) {
        same = links[i] == xbt_dynar_get_as(route, i, sg_link_t);
        double bw = sg_link_get_bandwidth(links[i]);
        bandwidth = bandwidth == 0 || bw < bandwidth ? bw : bandwidth;
      }
      double latency;
      double narrowest;
      sim_engine_route(x, y, &latency, &narrowest);
      same = same && latency == sg_host_get_route_latency(x, y) && narrowest == bandwidth;
      if (!same)
        fprintf(stderr, "%s to %s: the route by arithmetic differs from SimGrid's\n", sg_host_get_name(x),
                sg_host_get_name(y));
      wrong += !same;
    }
  xbt_dynar_free(&route);
  return wrong;
}

static void test_sim_grid_routes_match_mesh(void)
{
  CU_ASSERT_EQUAL(routes_differ(), 0);
}

/* A torus 5 x 4 (wrapping both ways; on a row of 4 the two ways round tie at 2) and a fat tree 3:2 loaded in a
 * process of its own (SimGrid loads one platform per process): its exit status, the count of routes that differ. */
static int torus_and_tree_status = -1;

static void test_sim_grid_routes_match_torus_and_tree(void)
{
  CU_ASSERT_EQUAL(torus_and_tree_status, 0);
}

static int torus_and_tree(void)
{
  static const char xml[] =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      "<platform version=\"4.1\">\n<zone id=\"world\" routing=\"None\">\n"
      "<zone id=\"t\" routing=\"None\"><prop id=\"simrun:grid\" value=\"torus 5x4\"/>"
      "<prop id=\"simrun:grid-speed\" value=\"1Gf\"/><prop id=\"simrun:grid-bandwidth\" value=\"1GBps\"/>"
      "<prop id=\"simrun:grid-latency\" value=\"1.3us\"/></zone>\n"
      "<zone id=\"f\" routing=\"None\"><prop id=\"simrun:grid\" value=\"fattree 3:2\"/>"
      "<prop id=\"simrun:grid-speed\" value=\"1Gf\"/><prop id=\"simrun:grid-bandwidth\" value=\"1GBps\"/>"
      "<prop id=\"simrun:grid-latency\" value=\"0.7us\"/></zone>\n</zone>\n</platform>\n";
  const char *tmp = getenv("TMPDIR");
  char path[512];
  char err[1024];
  snprintf(path, sizeof path, "%s/simrun-torus-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  int fd = mkstemp(path);
  if (fd < 0)
    return -1;
  int ok = write(fd, xml, sizeof xml - 1) == (ssize_t)(sizeof xml - 1);
  close(fd);
  fflush(NULL);
  pid_t pid = ok ? fork() : -1;
  if (pid == 0) {
    int loaded = sim_engine_start(path, err, sizeof err) == 0 && sim_engine_host_count() == 20 + 9;
    if (!loaded)
      fprintf(stderr, "test_sim_grid: the torus and tree did not load: %s\n", err);
    _exit(loaded ? (routes_differ() > 0) : 2);
  }
  int status = -1;
  int waited = pid > 0 && waitpid(pid, &status, 0) == pid;
  unlink(path);
  return waited && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Writes `topo` (native or explicit) to a new temporary file named in path (the caller unlinks it). 1, or 0 with err.
 */
static int write_platform(plt_topo_t topo, char *path, size_t len, char *err, size_t errlen)
{
  const char *tmp = getenv("TMPDIR");
  snprintf(path, len, "%s/simrun-grid-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  int fd = mkstemp(path);
  FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
  int ok = out && plt_topo_resolve(&topo, err, errlen) == 0 && plt_topo_write(&topo, out, err, errlen) == 0;
  if (out)
    fclose(out);
  return ok;
}

int main(void)
{
  torus_and_tree_status = torus_and_tree();
  plt_topo_t topo = {.kind = PLT_TOPO_MESH, .size = {ROWS, COLS}, .preset = plt_topo_preset("t800-flat"), .native = 1};
  char path[512];
  char err[1024] = "";
  int ok = write_platform(topo, path, sizeof path, err, sizeof err);
  ok = ok && sim_engine_start(path, err, sizeof err) == 0 && sim_engine_host_count() == ROWS * COLS;
  unlink(path);
  if (!ok) {
    fprintf(stderr, "test_sim_grid: the native mesh did not load: %s\n", err);
    return 1;
  }
  static const tu_case_t cases[] = {
      {"test_sim_grid_links_hand_counts", test_sim_grid_links_hand_counts},
      {"test_sim_grid_links_match_routes", test_sim_grid_links_match_routes},
      {"test_sim_grid_routes_match_mesh", test_sim_grid_routes_match_mesh},
      {"test_sim_grid_routes_match_torus_and_tree", test_sim_grid_routes_match_torus_and_tree},
      {NULL, NULL}};
  return tu_run("sim_grid", cases);
}
