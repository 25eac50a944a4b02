/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun machine probe FILE.xml: measures this machine (cli_probe.h) and writes a SimGrid platform of it, every value
 * with its measurement in a comment, for replaying a traced run on the machine it was measured on (docs/machines.md).
 */
#ifndef CLI_MACHINE_H
#define CLI_MACHINE_H

#include "cli_context.h"

#include <stddef.h>

/* The subcommand, with argv[0] = "machine"; the probe's signals are caught when ctx->catch_signals says so. Returns the
 * exit status: 0, 1 when a measurement or the file failed, 2 for bad usage or input. */
int cli_machine_main(const cli_context_t *ctx, int argc, char **argv);

/* The id the probed platform gives host `core` of node `node` (of `nodes`) into id[len]: core-C on one node, nN-core-C
 * on several; pooled (core -1), the node's one host: this-node on one node, nN on several. cli_binding places a bound
 * run's ranks on these hosts. */
void cli_machine_host_id(char *id, size_t len, int nodes, int node, int core);

#endif
