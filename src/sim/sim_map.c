/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Rank-to-host mapping: the platform's own order, Gray-code order on a hypercube, compact snake-ordered partitions of
 * a mesh, or hosts in name order elsewhere. */
#include "sim_map.h"
#include "sim_engine.h"
#include "sim_error.h"
#include "sim_prop.h"

#include <limits.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sim_map_rectangle(int p, int max_rows, int max_cols, int *rows, int *cols)
{
  int best_spare = INT_MAX;
  int best_skew = INT_MAX;
  for (int r = 1; r <= max_rows; r++) {
    int c = (p + r - 1) / r;
    if (c > max_cols)
      continue;
    int spare = r * c - p;
    int skew = abs(r - c);
    if (spare < best_spare || (spare == best_spare && skew < best_skew)) {
      best_spare = spare;
      best_skew = skew;
      *rows = r;
      *cols = c;
    }
  }
  return best_spare == INT_MAX ? -1 : 0;
}

void sim_map_snake(int rank, int cols, int *row, int *col)
{
  *row = rank / cols;
  int offset = rank % cols;
  *col = (*row % 2 == 0) ? offset : cols - 1 - offset;
}

int sim_map_host_coords(const_sg_host_t host, int *row, int *col)
{
  const char *r = sg_host_get_property_value(host, sim_prop_name(SIM_PROP_ROW));
  const char *c = sg_host_get_property_value(host, sim_prop_name(SIM_PROP_COL));
  if (!r || !c)
    return -1;
  *row = atoi(r);
  *col = atoi(c);
  return 0;
}

/* Maps onto a mesh whose host (r, c) is grid[r * max_cols + c]; returns 0 or SIM_EHOSTS. */
static int map_mesh(int nranks, sg_host_t *grid, int max_rows, int max_cols, sg_host_t *hosts, char *err, size_t errlen)
{
  int rows = 0;
  int cols = 0;
  if (sim_map_rectangle(nranks, max_rows, max_cols, &rows, &cols) != 0) {
    snprintf(err, errlen, "no rectangle of the %dx%d mesh holds %d ranks", max_rows, max_cols, nranks);
    return SIM_EHOSTS;
  }
  for (int rank = 0; rank < nranks; rank++) {
    int row;
    int col;
    sim_map_snake(rank, cols, &row, &col);
    hosts[rank] = grid[row * max_cols + col];
    if (!hosts[rank]) {
      snprintf(err, errlen, "the mesh has no host at row %d, column %d", row, col);
      return SIM_EHOSTS;
    }
  }
  return 0;
}

/* Fills a row-major grid of the mesh hosts; returns NULL when some host has no coordinates (not a mesh). */
static sg_host_t *mesh_grid(size_t count, int *max_rows, int *max_cols)
{
  *max_rows = 0;
  *max_cols = 0;
  for (size_t i = 0; i < count; i++) {
    int row;
    int col;
    if (sim_map_host_coords(sim_engine_host(i), &row, &col) != 0 || row < 0 || col < 0)
      return NULL;
    *max_rows = row + 1 > *max_rows ? row + 1 : *max_rows;
    *max_cols = col + 1 > *max_cols ? col + 1 : *max_cols;
  }
  sg_host_t *grid = calloc((size_t)*max_rows * (size_t)*max_cols, sizeof *grid);
  for (size_t i = 0; grid && i < count; i++) {
    int row;
    int col;
    sim_map_host_coords(sim_engine_host(i), &row, &col);
    grid[row * *max_cols + col] = sim_engine_host(i);
  }
  return grid;
}

int sim_map_gray(int rank)
{
  return rank ^ (rank >> 1);
}

/* Rank r on host gray(r) in name order (a hypercube's host i is linked to i xor 2^b); returns 0 or SIM_EHOSTS. */
static int map_gray(int nranks, size_t count, sg_host_t *hosts, char *err, size_t errlen)
{
  for (int rank = 0; rank < nranks; rank++) {
    size_t host = (size_t)sim_map_gray(rank);
    if (host >= count) {
      snprintf(err, errlen,
               "Gray-code placement (%s) puts rank %d on host %zu, but the platform has %zu hosts: it needs a "
               "power-of-two host count, as a hypercube has",
               sim_prop_name(SIM_PROP_PLACEMENT), rank, host, count);
      return SIM_EHOSTS;
    }
    hosts[rank] = sim_engine_host(host);
  }
  return 0;
}

typedef struct ordered_host {
  long order;
  size_t index; /* in name order: ties keep it */
} ordered_host_t;

static int by_order(const void *a, const void *b)
{
  const ordered_host_t *x = a;
  const ordered_host_t *y = b;
  if (x->order != y->order)
    return x->order < y->order ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* When every host has simrun:order (an integer), ranks take hosts by ascending order: returns 1 with hosts filled;
 * 0 when some host has none; SIM_EPLATFORM on a malformed value or SIM_ENOMEM. */
static int map_ordered(int nranks, size_t count, sg_host_t *hosts, char *err, size_t errlen)
{
  ordered_host_t *list = malloc(count * sizeof *list);
  if (!list)
    return SIM_ENOMEM;
  int rc = 1;
  for (size_t i = 0; rc == 1 && i < count; i++) {
    const char *text = sg_host_get_property_value(sim_engine_host(i), sim_prop_name(SIM_PROP_ORDER));
    char *end = NULL;
    list[i] = (ordered_host_t){.order = text ? strtol(text, &end, 10) : 0, .index = i};
    if (!text)
      rc = 0;
    else if (end == text || *end != '\0') {
      snprintf(err, errlen, "host %s: %s = \"%s\": expected an integer (the host's place in rank order)",
               sg_host_get_name(sim_engine_host(i)), sim_prop_name(SIM_PROP_ORDER), text);
      rc = SIM_EPLATFORM;
    }
  }
  if (rc == 1) {
    qsort(list, count, sizeof *list, by_order);
    for (int rank = 0; rank < nranks; rank++)
      hosts[rank] = sim_engine_host(list[rank].index);
  }
  free(list);
  return rc;
}

int sim_map_ranks(int nranks, sg_host_t *hosts, char *err, size_t errlen)
{
  size_t count = sim_engine_host_count();
  if (nranks < 1 || (size_t)nranks > count) {
    snprintf(err, errlen, "p = %d but the platform has %zu host%s", nranks, count, count == 1 ? "" : "s");
    return SIM_EHOSTS;
  }
  int ordered = map_ordered(nranks, count, hosts, err, errlen);
  if (ordered != 0)
    return ordered == 1 ? 0 : ordered;
  const char *placement = sim_engine_property(sim_prop_name(SIM_PROP_PLACEMENT));
  if (placement && strcmp(placement, sim_prop_row(SIM_PROP_PLACEMENT)->words) == 0)
    return map_gray(nranks, count, hosts, err, errlen);
  if (placement) {
    snprintf(err, errlen, "root-zone property %s = \"%s\": the only placement is \"%s\" (or give every host %s)",
             sim_prop_name(SIM_PROP_PLACEMENT), placement, sim_prop_row(SIM_PROP_PLACEMENT)->words,
             sim_prop_name(SIM_PROP_ORDER));
    return SIM_EPLATFORM;
  }
  int max_rows;
  int max_cols;
  sg_host_t *grid = mesh_grid(count, &max_rows, &max_cols);
  if (grid) {
    int rc = map_mesh(nranks, grid, max_rows, max_cols, hosts, err, errlen);
    free(grid);
    return rc;
  }
  for (int rank = 0; rank < nranks; rank++)
    hosts[rank] = sim_engine_host((size_t)rank);
  return 0;
}
