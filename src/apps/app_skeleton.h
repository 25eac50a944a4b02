/* The catalogue of program skeletons: each names its parameters (checked by the scenario module), turns one sweep
 * point's values into a program argument, and provides the per-rank body run by the replay layer. */
#ifndef APP_SKELETON_H
#define APP_SKELETON_H

#include "scn_scenario.h"
#include "sim_replay.h"

#include <stddef.h>

/* One sweep point: the value of every parameter, by name. Borrowed strings. */
typedef struct app_point {
  size_t count;
  const char *const *names;
  const char *const *values;
} app_point_t;

/* The value of parameter `name` at this point, or NULL. */
const char *app_point_value(const app_point_t *point, const char *name);
/* The value as a long (the scenario module checked it already); `fallback` when absent. */
long app_point_long(const app_point_t *point, const char *name, long fallback);

/* What a study of the skeleton reports: the lost-cycle metrics against its sequential run, or, for benchmarks with no
 * sequential counterpart such as a ping-pong, the message times by size and distance. */
typedef enum app_view { APP_VIEW_LOST_CYCLES = 0, APP_VIEW_MESSAGES } app_view_t;

typedef struct app_skeleton {
  const scn_skeleton_spec_t *spec;
  app_view_t view;
  /* Builds the program argument for `point` with `nranks` ranks. Returns 0, or SIM_EPARAM with a message in err and
   * the name of the parameter to blame in *bad_param (so that the caller can point at its line). */
  int (*prepare)(const app_point_t *point, int nranks, void **arg, char *err, size_t errlen, const char **bad_param);
  sim_program_fn program;
  void (*release)(void *arg); /* frees what prepare built; accepts NULL */
} app_skeleton_t;

/* The skeleton called `name`, or NULL. */
const app_skeleton_t *app_find(const char *name);
/* The names of all skeletons, comma-separated, for messages and --help. A static string. */
const char *app_names(void);

#endif
