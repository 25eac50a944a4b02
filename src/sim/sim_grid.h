/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Native grid zones: 2D meshes and tori whose routes are computed arithmetically (dimension order), and fat trees
 * (up to the lowest common switch), built at load time from a platform zone that describes them in properties, so
 * that routing costs nothing per host pair. */
#ifndef SIM_GRID_H
#define SIM_GRID_H

#include <simgrid/forward.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* After a platform file is loaded and before it is sealed: fills every zone that has the property simrun:grid
 * ("mesh ROWSxCOLS" or "torus ROWSxCOLS") with a child zone of ROWS x COLS hosts n<row>-<col> (speed
 * simrun:grid-speed, properties simrun:row, simrun:col and every other property of the zone) and split-duplex links
 * l-<a>-<b> (simrun:grid-bandwidth, simrun:grid-latency) between neighbours, named, directed and ordered as
 * `simrun platform` writes them in an explicit file. A route goes along the row first, then along the column; on a
 * torus, the short way round in every dimension longer than 2 (forward on a tie). A zone with "fattree K:L" gets the
 * hosts n<i> and links of the explicit fat tree, routed through the lowest common switch (docs/topologies.md).
 * Returns 0, or SIM_EPLATFORM with a message naming the zone and the property. */
int sim_grid_build(char *err, size_t errlen);

/* The physical links on the routes between every two of the `count` hosts, counted from their coordinates in
 * O(count + rows + cols) without looking a route up, when all of them are in one native mesh (not a torus); -1
 * otherwise. The same count as listing the links of every pair's route (sim_engine_links_between). */
int sim_grid_links_between(const sg_host_t *hosts, size_t count);

/* The links of the route from host a to host b, in route order, into out[0 .. max - 1], found by arithmetic when a
 * and b are two hosts of one native grid or tree zone: the links SimGrid's own route lookup gives (its
 * get_local_route here), without its search for the zones' common ancestor or its vectors. Returns their number (the
 * whole route's, even beyond max), or -1 when a and b are one host or not of one such zone. */
int sim_grid_route_links(const_sg_host_t a, const_sg_host_t b, const_sg_link_t *out, int max);

/* The native grid or tree zone that holds `host`, or NULL when its zone is not one: between two hosts of one such zone
 * a route exists and passes each link once by construction (dimension order, the short way round a torus, up to the
 * lowest common switch), so the platform check need not look it up (sim_check.cpp). */
const void *sim_grid_native_zone(const_sg_host_t host);

#ifdef __cplusplus
}
#endif

#endif
