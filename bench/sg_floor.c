/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SimGrid alone, no simrun: the cost floor bench/scale.sh prints beside simrun's figures. One actor per rank on the
 * same generated T800 mesh, in the same snake order, relaying a row of 8 p bytes from each step's root to every
 * other rank, both ways along the line, p steps (p (p - 1) messages, as the neighbour broadcast sends), each message
 * a blocking mailbox send and receive of one SimGrid call each, as simrun's (sim_comm_send, sim_comm_recv of
 * src/sim/sim_replay_comm.h), and nothing else: no computation, no recording, no model callback, no skeleton.
 * The least one SimGrid message per message costs. The platform is loaded as simrun loads it, native grids
 * (src/sim/sim_grid.h) included, so both route alike. Prints the number of messages; the caller times it.
 * Usage: sg_floor PLATFORM ROWS COLS [--cfg=...] */
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <sim_grid.h>
#include <sim_replay_comm.h>
#include <stdio.h>
#include <stdlib.h>

static int nranks;
static sg_mailbox_t *inbox;

/* Step k's root relays its row both ways along the line of ranks, as the neighbour broadcast does: each rank takes
 * it from its neighbour on the root's side and passes it on away from the root. */
static void rank_main(int argc, char *argv[])
{
  int me = atoi(argv[1]);
  double row_bytes = 8.0 * nranks;
  for (int root = 0; root < nranks; root++) {
    if (me != root)
      sim_comm_recv(inbox[me]);
    if (me >= root && me + 1 < nranks)
      sim_comm_send(inbox[me + 1], row_bytes, NULL);
    if (me <= root && me > 0)
      sim_comm_send(inbox[me - 1], row_bytes, NULL);
  }
}

int main(int argc, char *argv[])
{
  simgrid_init(&argc, argv);
  if (argc != 4) {
    fprintf(stderr, "usage: sg_floor PLATFORM ROWS COLS\n");
    return 2;
  }
  simgrid_load_platform(argv[1]);
  char err[512];
  if (sim_grid_build(err, sizeof err) != 0) {
    fprintf(stderr, "sg_floor: %s\n", err);
    return 2;
  }
  int rows = atoi(argv[2]);
  int cols = atoi(argv[3]);
  nranks = rows * cols;
  inbox = malloc((size_t)nranks * sizeof *inbox);
  for (int i = 0; i < nranks; i++) {
    char name[32];
    snprintf(name, sizeof name, "inbox-%d", i);
    inbox[i] = sg_mailbox_by_name(name);
  }
  for (int i = 0; i < nranks; i++) {
    int row = i / cols;
    int col = row % 2 == 0 ? i % cols : cols - 1 - i % cols;
    char host[32];
    char id[16];
    snprintf(host, sizeof host, "n%d-%d", row, col);
    snprintf(id, sizeof id, "%d", i);
    const char *args[] = {"rank", id, NULL};
    sg_actor_create("rank", sg_host_by_name(host), rank_main, 2, (char **)args);
  }
  simgrid_run();
  printf("%ld\n", (long)nranks * (nranks - 1));
  free(inbox);
  return 0;
}
