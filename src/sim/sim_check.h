/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Checks of a loaded platform for what SimGrid would abort on mid-run (a host speed or link bandwidth of 0, NaN or
 * infinite, hosts with no route between them) and for machine-model properties that mean nothing (NaN, infinite, a
 * negative size or cost), run by the platform probe before any point is simulated. */
#ifndef SIM_CHECK_H
#define SIM_CHECK_H

#include "sim_machine.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Why simrun refuses SimGrid's Constant network model (a platform's <config>, or --cfg), without the fix. */
extern const char sim_check_constant_reason[];

/* Above this many hosts, routes are checked from the first host only, not between every pair. */
#define SIM_CHECK_ALL_PAIRS_MAX 256

/* The physical ranges a platform's figures must lie in (docs/hostile-input.md): outside them a number is a typo or a
 * unit slip, and the run's times would be nonsense (1e-300 B/s gave a T_par of 301 digits). A host: 1 flop/s to
 * 1e18 flop/s (an exaflop in one host); a link: 1 B/s to 1 PB/s, latency 0 to an hour; simrun's properties: the
 * ranges of their rows in sim_prop_table.h. */
#define SIM_CHECK_MIN_SPEED     1.0
#define SIM_CHECK_MAX_SPEED     1e18
#define SIM_CHECK_MIN_BANDWIDTH 1.0
#define SIM_CHECK_MAX_BANDWIDTH 1e15
#define SIM_CHECK_MAX_LATENCY   3600.0

/* Checks every simrun:* property of the loaded platform `platform` (its root zone, zones, hosts and links) against the
 * table of sim_prop.h: a name simrun knows, given where it is read (a root-zone property on another zone would be
 * ignored), with a value of its type in its range. Returns 0, or SIM_EPLATFORM with "FILE:LINE: property ...: what;
 * fix" in err. */
int sim_check_props(const char *platform, char *err, size_t errlen);

/* Before SimGrid loads `platform`: well-formed XML (else FILE:LINE:COLUMN from libxml2), a <platform> root (a simrun
 * scenario is named as such), the DOCTYPE line SimGrid's parser needs, a version SimGrid 3.32 reads (4.1 at most)
 * and no WIFI zone or link nor state profile (a host or link switched off), which simrun does not simulate. Returns 0,
 * or SIM_EPLATFORM with a message naming the place and the fix. */
int sim_check_platform_xml(const char *platform, char *err, size_t errlen);

/* Once SimGrid is started (sim_engine_init) and before it loads `platform`: every <prop> of the file's <config> a
 * setting SimGrid has, with a value it takes (a model among its names). Returns 0, or SIM_EPLATFORM with
 * "FILE:LINE: <config> setting NAME = "VALUE": why; fix" in err. */
int sim_check_config(const char *platform, char *err, size_t errlen);

/* Rewrites SimGrid's "Parse error at FILE:LINE: what" in `err` as "FILE:LINE: what; fix"; other messages stay. */
void sim_check_explain(char *err, size_t errlen);

/* SimGrid's load errors that name an element without its line, given FILE:LINE from the platform read by libxml2, with
 * the fix: a <link_ctn> naming a link no <link> declares ("Link not found: ID"), a host id used twice ("Refusing to
 * create a second host named 'ID'"). Other messages are left as they are. */
void sim_check_locate(const char *platform, char *err, size_t errlen);

/* The line in `platform` (read by libxml2) of the first <host id="host"> or <trace_connect element="host">, where a
 * host's speed profile is given; 0 when there is none (a cluster's hosts have no element of their own). */
int sim_check_host_line(const char *platform, const char *host);

/* Checks the platform loaded by sim_engine_start: every host's speed, every link's bandwidth and latency in the ranges
 * above, and a route between every two hosts that passes each link once. Returns 0, or SIM_EPLATFORM with a message
 * naming the host or link and the fix. */
int sim_check_platform(char *err, size_t errlen);

/* Checks the model read by sim_machine_read: every number in its property's range (sim_prop_table.h: coefficients of
 * magnitude at most 1e12; sizes, link initialisation, I/O costs (eqs. 5-6) and the eager limit not negative).
 * Returns 0, or SIM_EPLATFORM with a message naming the property. */
int sim_check_machine(const sim_machine_t *machine, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
