/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The start time of a SimGrid communication for the replay layer's non-blocking messages (sim_replay_comm.h): the C
 * interface waits for and tests communications but does not say when their transfer started. */
#include "sim_replay_comm.h"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Mailbox.hpp>
#include <vector>

int sim_comm_finish(sg_comm_t comm, int block, double *start)
{
  simgrid::s4u::CommPtr held(comm, false); /* takes over the caller's reference */
  if (block)
    held->wait();
  else if (not held->test()) {
    held.detach(); /* the caller keeps its reference */
    return 0;
  } else /* over, but SimGrid 3.32's test leaves it in the actor's list of its activities (ActivityImpl::test), which
          * keeps it until the actor ends and which every later end of the actor's walks whole: a wait takes it out
          * (ActivityImpl::finish), returning at once at the same date; wait() itself does nothing after the test */
    simgrid::s4u::Comm::wait_any(std::vector<simgrid::s4u::CommPtr>{held});
  *start = held->get_start_time();
  return 1;
}

void sim_comm_cancel(sg_comm_t comm)
{
  simgrid::s4u::CommPtr held(comm, false); /* takes over the caller's reference */
  held->cancel();
}

void sim_comm_send(sg_mailbox_t mailbox, double bytes, void *payload)
{
  /* rate -1: unlimited, as Mailbox::put; the payload pointer copied as Mailbox::put_init copies it; timeout -1 */
  simgrid::s4u::Comm::send(simgrid::s4u::Actor::self()->get_impl(), mailbox, bytes, -1, payload,
                           payload ? sizeof(void *) : 0, nullptr, nullptr, nullptr, -1);
}

void *sim_comm_recv(sg_mailbox_t mailbox)
{
  void *payload = nullptr;
  simgrid::s4u::Comm::recv(simgrid::s4u::Actor::self()->get_impl(), mailbox, &payload, nullptr, nullptr, nullptr,
                           nullptr, -1, -1);
  return payload;
}

sg_comm_t sim_comm_sendto(sg_host_t from, sg_host_t to, double bytes)
{
  /* started explicitly: sendto_async leaves one of 0 bytes unstarted until waited for (Comm::set_destination) */
  simgrid::s4u::CommPtr comm = simgrid::s4u::Comm::sendto_init(from, to);
  comm->set_payload_size(static_cast<uint64_t>(bytes));
  comm->start();
  intrusive_ptr_add_ref(comm.get()); /* the caller's reference, as sg_mailbox_put_async's */
  return comm.get();
}

void sim_comm_set_receiver(sg_mailbox_t mailbox, sg_actor_t receiver)
{
  mailbox->set_receiver(simgrid::s4u::ActorPtr(receiver));
}
