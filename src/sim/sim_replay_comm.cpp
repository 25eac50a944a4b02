/* The start time of a SimGrid communication for the replay layer's non-blocking messages (sim_replay_comm.h): the C
 * interface waits for and tests communications but does not say when their transfer started. */
#include "sim_replay_comm.h"

#include <simgrid/s4u/Comm.hpp>

int sim_comm_finish(sg_comm_t comm, int block, double *start)
{
  simgrid::s4u::CommPtr held(comm, false); /* takes over the caller's reference */
  if (block)
    held->wait();
  else if (not held->test()) {
    held.detach(); /* the caller keeps its reference */
    return 0;
  }
  *start = held->get_start_time();
  return 1;
}
