/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* `simrun platform KIND SIZE`: writes a SimGrid platform of identical hosts and links (plt_topo) to standard output or
 * to a file. */
#ifndef CLI_PLATFORM_H
#define CLI_PLATFORM_H

/* Runs the subcommand; argv[0] is "platform". Returns the exit status: 0, 1 (writing failed) or 2 (bad usage, with one
 * "simrun: error: ...; see simrun platform --help" line on stderr). */
int cli_platform_main(int argc, char **argv);

#endif
