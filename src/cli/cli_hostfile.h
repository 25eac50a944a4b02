/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The hostfile of `simrun machine probe --hostfile FILE` (docs/machines.md): Open MPI's format (a node name per line,
 * optionally `slots=N`, `#` comments), read into the nodes the probed platform holds and checked before mpirun runs. */
#ifndef CLI_HOSTFILE_H
#define CLI_HOSTFILE_H

enum { CLI_HOSTFILE_MAX_NODES = 64, CLI_HOSTFILE_MAX_HOSTS = 512 };

typedef struct cli_hostfile {
  int nodes;                             /* distinct node names, in the file's order */
  char name[CLI_HOSTFILE_MAX_NODES][64]; /* each node's name */
  int slots[CLI_HOSTFILE_MAX_NODES];     /* its cores: `slots=N`, else the count of its lines times `cores` */
} cli_hostfile_t;

/* Reads `path`; a node without `slots=` has `cores` (this machine's) per line naming it. Returns 0, or 2 after one
 * error line (FILE:LINE: what is wrong; how to fix): unreadable, a bad slots count, fewer than two nodes, too many. */
int cli_hostfile_read(const char *path, int cores, cli_hostfile_t *hosts);

#endif
