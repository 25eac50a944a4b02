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

/* Above this many hosts, routes are checked from the first host only, not between every pair. */
#define SIM_CHECK_ALL_PAIRS_MAX 256

/* Checks the platform loaded by sim_engine_start: every host's speed, every link's bandwidth and latency, and a route
 * between every two hosts. Returns 0, or SIM_EPLATFORM with a message naming the host or link and the fix. */
int sim_check_platform(char *err, size_t errlen);

/* Checks the model read by sim_machine_read: every coefficient finite, sizes and link initialisation not negative.
 * Returns 0, or SIM_EPLATFORM with a message naming the property. */
int sim_check_machine(const sim_machine_t *machine, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
