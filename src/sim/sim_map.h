/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Rank-to-host mapping, by the first rule that applies:
 *  - the platform names its own order: every host has simrun:order (an integer), ranks take hosts by ascending order;
 *  - a hypercube (root-zone simrun:placement="gray", as `simrun platform hypercube` writes): rank r takes host
 *    r xor (r >> 1) in name order (reflected Gray code), so that consecutive ranks are one link apart;
 *  - a mesh (every host has simrun:row and simrun:col): p ranks get the most compact free-standing rectangle of the
 *    mesh, filled in snake order so that consecutive ranks are neighbours, as a Parsytec partition holds adjacent row
 *    blocks on neighbouring processors (seed 001 §4.2, Fig. 2);
 *  - otherwise ranks take the hosts in natural name order. */
#ifndef SIM_MAP_H
#define SIM_MAP_H

#include <simgrid/forward.h>
#include <stddef.h>

/* Fills hosts[0..nranks-1]. Returns 0, or SIM_EHOSTS (more ranks than hosts, no rectangle of the mesh holds them,
 * a Gray-code host beyond the last) or SIM_EPLATFORM (a bad simrun:order or simrun:placement) with a message in err.
 * Needs a started engine. */
int sim_map_ranks(int nranks, sg_host_t *hosts, char *err, size_t errlen);

/* A host's mesh coordinates (properties simrun:row and simrun:col). Returns 0, or -1 when it lacks either. */
int sim_map_host_coords(const_sg_host_t host, int *row, int *col);

/* The rectangle rows x cols (rows <= max_rows, cols <= max_cols) that holds p cells with the fewest spare cells, then
 * the squarest, then the fewest rows. Returns 0, or -1 when p does not fit. Pure: exposed for tests. */
int sim_map_rectangle(int p, int max_rows, int max_cols, int *rows, int *cols);

/* The reflected Gray code of `rank`: rank ^ (rank >> 1); consecutive values differ in one bit. Pure. */
int sim_map_gray(int rank);

/* The cell of rank `rank` when a rows x cols rectangle is filled in snake order (row 0 left to right, row 1 right to
 * left, ...). Pure: exposed for tests. */
void sim_map_snake(int rank, int cols, int *row, int *col);

#endif
