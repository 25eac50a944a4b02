/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the study module: a platform too big for its routing, refused before SimGrid loads it. SimGrid's Floyd
 * routing fills three n x n tables (cost, predecessor, route: 24 n^2 bytes) in n^3 steps for a zone of n hosts,
 * routers and sub-zones: a zone of 100,000 hosts asked for 240 GB and died with std::bad_alloc after 9.5 s. */
#ifndef STU_ROUTING_H
#define STU_ROUTING_H

#include <stddef.h>

/* The most netpoints a Floyd zone may have: 4096 take 400 MB of tables and 6.9e10 steps. */
enum { STU_FLOYD_MAX = 4096 };

/* Reads platform file `path` (streaming: it may be large) and checks every zone routed by Floyd. Returns 0 (also when
 * the file cannot be read or parsed: SimGrid says why when it loads it), or SIM_EPLATFORM with "LINE: zone 'ID' ...;
 * use ..." in err. */
int stu_routing_check(const char *path, char *err, size_t errlen);

#endif
