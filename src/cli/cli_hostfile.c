/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The hostfile of simrun machine probe (cli_hostfile.h): Open MPI's hostfile format as its manual gives it (a node
 * per line, `slots=N` among the words after it, `#` to the end of a line a comment), read into distinct nodes. */
#include "cli_hostfile.h"
#include "cli_exit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *path, int line, const char *what)
{
  fprintf(stderr, "simrun: error: %s:%d: %s\n", path, line, what);
  return EXIT_INPUT;
}

/* The node named `name`, added when new (its slots 0); -1 when there are too many. */
static int node_of(cli_hostfile_t *hosts, const char *name)
{
  for (int i = 0; i < hosts->nodes; i++)
    if (strcmp(hosts->name[i], name) == 0)
      return i;
  if (hosts->nodes == CLI_HOSTFILE_MAX_NODES)
    return -1;
  snprintf(hosts->name[hosts->nodes], sizeof hosts->name[0], "%s", name);
  hosts->slots[hosts->nodes] = 0;
  return hosts->nodes++;
}

/* One line's node and slots into `hosts`; 0, or an exit status after the error line. */
static int read_line(char *text, const char *path, int line, int cores, cli_hostfile_t *hosts)
{
  char *hash = strchr(text, '#');
  if (hash)
    *hash = '\0';
  char *name = strtok(text, " \t\r\n");
  if (!name)
    return 0;
  if (strlen(name) >= sizeof hosts->name[0])
    return fail(path, line, "a node name of 64 characters or more; use a shorter name or its address");
  int node = node_of(hosts, name);
  if (node < 0)
    return fail(path, line, "more than 64 nodes; probe with a hostfile of fewer (the nodes are alike)");
  int slots = cores;
  for (char *word = strtok(NULL, " \t\r\n"); word; word = strtok(NULL, " \t\r\n")) {
    char *end = NULL;
    if (strncmp(word, "slots=", 6) == 0 && ((slots = (int)strtol(word + 6, &end, 10)) <= 0 || *end))
      return fail(path, line, "slots= is not a positive whole number; write e.g. 'node1 slots=4'");
  }
  hosts->slots[node] += slots;
  return 0;
}

int cli_hostfile_read(const char *path, int cores, cli_hostfile_t *hosts)
{
  FILE *in = fopen(path, "r");
  if (!in) {
    fprintf(stderr, "simrun: error: %s: cannot read that hostfile; give Open MPI's hostfile (a node per line)\n", path);
    return EXIT_INPUT;
  }
  memset(hosts, 0, sizeof *hosts);
  char text[1024];
  int rc = 0, line = 0, total = 0;
  while (rc == 0 && fgets(text, sizeof text, in))
    rc = read_line(text, path, ++line, cores, hosts);
  fclose(in);
  for (int i = 0; rc == 0 && i < hosts->nodes; i++)
    total += hosts->slots[i];
  if (rc == 0 && hosts->nodes < 2)
    rc = fail(path, line, "fewer than two nodes; an inter-node ping-pong needs two node names, one per line");
  if (rc == 0 && total > CLI_HOSTFILE_MAX_HOSTS)
    rc = fail(path, line, "more than 512 cores in all; give fewer nodes or smaller slots= (the nodes are alike)");
  return rc;
}
