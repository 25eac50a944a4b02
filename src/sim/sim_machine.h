/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The machine model a platform file carries beyond what SimGrid XML expresses: from properties of its root zone, the
 * per-message time on a quiet network (seed 001 eq. 4, Table 2), link initialisation (eq. 3) and host I/O (eqs. 5, 6),
 * in microseconds and bytes as the paper gives them; from each host's properties, or its zones', the host's
 * characterisation (met_machine.h, docs/machines.md). */
#ifndef SIM_MACHINE_H
#define SIM_MACHINE_H

#include "met_machine.h"
#include "met_model.h"

#include <simgrid/forward.h>
#include <stddef.h>

typedef enum sim_io_dir { SIM_INPUT = 0, SIM_OUTPUT } sim_io_dir_t;

#define SIM_LINK_INIT_POINTS 32 /* most pairs simrun:link-init-by-p may give */

typedef struct sim_machine {
  int piecewise;       /* 1 when simrun:comm-model is "piecewise" (eq. 4); 0 keeps SimGrid's own link model */
  met_piecewise_t msg; /* simrun:comm-packet-bytes (p_s), simrun:comm-small-us (alpha, beta, gamma, delta for
                        * l <= p_s: us, us/B, us/hop, us/B/hop) and simrun:comm-large-us (the same for l > p_s) */
  int internode;       /* 1 when simrun:internode-* give messages between nodes their own eq. 4 (internode_msg) */
  met_piecewise_t internode_msg; /* simrun:internode-packet-bytes, -small-us, -large-us: as msg, between nodes */
  double link_init_us;           /* simrun:link-init-us: cost of initialising one link (eq. 3); 0 when absent */
  /* simrun:link-init-by-p: "p seconds" pairs, the whole link initialisation of a run on p ranks, given outright (the
   * T800 platform's option: the paper's model value, Table 5's T_cni); when present it replaces link_init_us x links */
  double link_init_by_p[2 * SIM_LINK_INIT_POINTS];
  int link_init_points; /* pairs in link_init_by_p; 0 when the property is absent */
  double input_us[2];   /* simrun:io-input-us: alpha, beta of eq. 5; zero when absent */
  double output_us[2];  /* simrun:io-output-us: alpha, beta of eq. 6; zero when absent */
  double eager_bytes;   /* simrun:eager-bytes: the message library's eager limit, a send of at most this many bytes is
                         * over for its sender at once; 0 when absent: every send is synchronous (transputer channels) */
  int eager_at_send;    /* simrun:eager-start = send: an eager message starts moving when it is sent (the library pushes
                         * it into the receiver's socket buffers), not when its receive is posted (the default) */
  double page_fault_us; /* simrun:page-fault-us: the time of one minor page fault (the first touch of a page), charged
                         * for the faults a traced call took (a TI trace's faults action); 0 when absent */
  double first_call_us; /* simrun:first-call-us: what a process's first collective of a kind costs beyond the next one
                         * (the library's set-up of that kind), charged at a TI replay's first of each kind on a rank;
                         * 0 when absent */
} sim_machine_t;

/* Reads the model from the loaded platform. Returns 0, or SIM_EPLATFORM with a message naming the property when a
 * value is malformed (or, for simrun:eager-bytes, negative or not finite), the comm model is unknown, or the
 * simrun:internode-* properties are given in part. */
int sim_machine_read(sim_machine_t *machine, char *err, size_t errlen);

/* Seconds for `bytes` over `hops` links from host src to host dst on a quiet network with the piecewise model (eq. 4,
 * met_piecewise_time), for sim_engine_set_msg_time: simrun:internode-*'s model when the platform gives it and the two
 * hosts are on different nodes (docs/machines.md: not one host, and not two hosts of one simrun:node), else
 * simrun:comm-*'s; NAN (the links' own time) without simrun:comm-model. */
double sim_machine_msg_time(const void *machine, double bytes, int hops, const_sg_host_t src, const_sg_host_t dst);

/* The characterisation of `host` in the loaded platform `platform` (for messages): simrun:clock-hz (default: the host's
 * speed), the four simrun:cycles-<class> (all or none: none gives met_charac_default), simrun:memory-bytes and the
 * optional cache level simrun:cache-bytes with simrun:cycles-cache (both or neither), each from the host or else from
 * the innermost zone around it that has it. Writes where it came from into origin (not when originlen is 0).
 * Returns 0, or SIM_EPLATFORM with "FILE:LINE: ..." in err when a value is malformed, negative, not finite, or only
 * some of the cycles are given. */
int sim_machine_charac(const_sg_host_t host, const char *platform, met_charac_t *charac, char *origin, size_t originlen,
                       char *err, size_t errlen);

/* Seconds of link initialisation (eq. 3) for a run on `nranks` ranks whose routes use `links` physical links: the
 * time simrun:link-init-by-p gives for nranks when the property is present, else link_init_us x links. Returns 0, or
 * SIM_EPLATFORM with a message when the property gives no time for nranks. */
int sim_machine_link_init_time(const sim_machine_t *machine, int nranks, int links, double *seconds, char *err,
                               size_t errlen);

/* Seconds for host input or output of `bytes` (eqs. 5, 6). */
double sim_machine_io_time(const sim_machine_t *machine, sim_io_dir_t dir, double bytes);

/* In a process whose loaded platform is `platform`: the description the analytic models take of `nranks` ranks mapped
 * as a run maps them (sim_map_ranks). Returns 0, or a SIM_E* code with a message. */
int sim_machine_describe(const char *platform, int nranks, met_platform_t *machine, char *err, size_t errlen);

#endif
