/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The route lengths of a platform as SimGrid loads it, for the checks of generated platforms (test_plt_topo.c): the
 * platform is loaded in a forked child, since SimGrid starts once per process, through the engine's own calls
 * (sim_engine_start, sim_engine_hops), and the child hands back its status, its message and the hop counts. */
#ifndef TU_ROUTES_H
#define TU_ROUTES_H

#include "sim_engine.h"
#include "sim_error.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* In the child: loads `platform`, writes its status, its message and, when it loaded, the host count and every
 * pair's hops to `out`, and ends. */
static inline void tu_routes_child(const char *platform, FILE *out)
{
  char err[1024] = "";
  int32_t status = sim_engine_start(platform, err, sizeof err);
  uint64_t hosts = status == 0 ? sim_engine_host_count() : 0;
  int ok = fwrite(&status, sizeof status, 1, out) == 1 && fwrite(err, 1, sizeof err, out) == sizeof err &&
           fwrite(&hosts, sizeof hosts, 1, out) == 1;
  for (size_t a = 0; ok && a < hosts; a++)
    for (size_t b = 0; ok && b < hosts; b++) {
      int32_t hops = sim_engine_hops(sim_engine_host(a), sim_engine_host(b));
      ok = fwrite(&hops, sizeof hops, 1, out) == 1;
    }
  _exit(fflush(out) == 0 && ok ? 0 : 3);
}

/* In the parent: what the child wrote to `in`. */
static inline int tu_routes_read(FILE *in, int **hops, size_t *hosts, char *err, size_t errlen)
{
  int32_t status = SIM_ECHILD;
  char message[1024];
  uint64_t count = 0;
  rewind(in);
  if (fread(&status, sizeof status, 1, in) != 1 || fread(message, 1, sizeof message, in) != sizeof message ||
      fread(&count, sizeof count, 1, in) != 1 || count > (1u << 16)) {
    snprintf(err, errlen, "the route probe wrote no routes");
    return SIM_ECHILD;
  }
  message[sizeof message - 1] = '\0';
  snprintf(err, errlen, "%s", message);
  if (status != 0)
    return status;
  *hosts = (size_t)count;
  *hops = malloc(*hosts * *hosts * sizeof **hops + 1);
  for (size_t i = 0; *hops && i < *hosts * *hosts; i++) {
    int32_t h;
    if (fread(&h, sizeof h, 1, in) != 1) {
      snprintf(err, errlen, "the route probe wrote too few routes");
      return SIM_ECHILD;
    }
    (*hops)[i] = h;
  }
  return *hops ? 0 : SIM_ENOMEM;
}

/* Loads `platform` in a child and measures the route between every pair of hosts: (*hops)[a * *hosts + b] is the
 * number of links from host a to host b, hosts in natural name order. Returns 0 and a new array in *hops (the caller
 * frees it, also on failure), or a SIM_E* code with a message in err (SimGrid's when the platform does not load). */
static inline int tu_routes(const char *platform, int **hops, size_t *hosts, char *err, size_t errlen)
{
  *hops = NULL;
  *hosts = 0;
  FILE *channel = tmpfile();
  if (!channel) {
    snprintf(err, errlen, "cannot create a temporary file");
    return SIM_EIO;
  }
  fflush(NULL); /* nothing buffered may be written twice */
  pid_t pid = fork();
  if (pid == 0)
    tu_routes_child(platform, channel);
  int wstatus = 0;
  int rc = SIM_ECHILD;
  if (pid < 0 || waitpid(pid, &wstatus, 0) != pid || !WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0)
    snprintf(err, errlen, "the route probe died or failed");
  else
    rc = tu_routes_read(channel, hops, hosts, err, errlen);
  fclose(channel);
  return rc;
}

#endif
