/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the command line changes in a run besides its outputs: SimGrid's own options (--cfg, --log, passed as smpirun
 * passes them), scenario parameters set or swept (--set NAME=VALUE) and the shard of the points to run (--shard). */
#ifndef CLI_CONFIG_H
#define CLI_CONFIG_H

#include "scn_scenario.h"

#include <stddef.h>

enum { CLI_MAX_SETS = 64 };

typedef struct cli_config {
  const char *sets[CLI_MAX_SETS]; /* the --set arguments, "NAME=VALUE", borrowed from argv */
  size_t nsets;
  int shard_index; /* --shard I/N: I from 1 to N; 0 without --shard */
  int shard_count; /* N */
  int simgrid_cfg; /* 1 when a --cfg was given: its runs may change figures, so the cache is not used */
} cli_config_t;

/* --cfg VALUE or --log VALUE (`option` is "cfg" or "log"): checks its form (cfg: NAME:VALUE) and hands
 * "--OPTION=VALUE" to the engine. Returns 0, or -1 with a message in err. */
int cli_simgrid_option(cli_config_t *config, const char *option, const char *value, char *err, size_t errlen);

/* --set TEXT: checks the form NAME=VALUE (a parameter name, one or more whitespace-separated values) and keeps it.
 * Returns 0, or -1 with a message in err. */
int cli_set_add(cli_config_t *config, const char *text, char *err, size_t errlen);

/* --shard TEXT: I/N with 1 <= I <= N. Returns 0, or -1 with a message in err. */
int cli_shard_parse(cli_config_t *config, const char *text, char *err, size_t errlen);

/* Applies the --set arguments to a loaded scenario, in order: each replaces the values of the parameter it names
 * (added when the scenario has none; swept when it has several values). The skeleton's check (scn_check) then
 * validates them as it does the file's; its errors about them name the option through cli_set_blame. Returns 0, or
 * -1 with *err filled (out of memory; a "platform" file that cannot be read, relative to the current folder). */
int cli_set_apply(const cli_config_t *config, scn_scenario_t *scenario, scn_error_t *err);

/* Whether a --set gave parameter p's values (cli_set_apply marks it), rather than the scenario file. */
int cli_set_gave(const scn_param_t *p);

/* An error about a parameter --set gave is reported against "--set NAME=VALUE" instead of a line of the file. */
void cli_set_blame(const cli_config_t *config, scn_error_t *err);

#endif
