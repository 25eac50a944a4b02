/* The machine model a platform file carries beyond what SimGrid XML expresses, read from properties of its root zone:
 * the per-message time on a quiet network (seed 001 eq. 4, Table 2), link initialisation (eq. 3) and host I/O
 * (eqs. 5, 6). Property values are in microseconds and bytes, as the paper gives them. */
#ifndef SIM_MACHINE_H
#define SIM_MACHINE_H

#include <stddef.h>

typedef enum sim_io_dir { SIM_INPUT = 0, SIM_OUTPUT } sim_io_dir_t;

typedef struct sim_machine {
  int piecewise;        /* 1 when simrun:comm-model is "piecewise" (eq. 4); 0 keeps SimGrid's own link model */
  double packet_bytes;  /* simrun:comm-packet-bytes: p_s, the size where the two regimes meet */
  double small[4];      /* simrun:comm-small-us: alpha, beta, gamma, delta for l <= p_s (us, us/B, us/hop, us/B/hop) */
  double large[4];      /* simrun:comm-large-us: the same for l > p_s */
  double link_init_us;  /* simrun:link-init-us: cost of initialising one link (eq. 3); 0 when absent */
  double input_us[2];   /* simrun:io-input-us: alpha, beta of eq. 5; zero when absent */
  double output_us[2];  /* simrun:io-output-us: alpha, beta of eq. 6; zero when absent */
} sim_machine_t;

/* Reads the model from the loaded platform. Returns 0, or SIM_EPLATFORM with a message naming the property when a
 * value is malformed or the comm model is unknown. */
int sim_machine_read(sim_machine_t *machine, char *err, size_t errlen);

/* Seconds for `bytes` over `hops` links on a quiet network with the piecewise model (eq. 4). */
double sim_machine_msg_time(const void *machine, double bytes, int hops);

/* Seconds for host input or output of `bytes` (eqs. 5, 6). */
double sim_machine_io_time(const sim_machine_t *machine, sim_io_dir_t dir, double bytes);

#endif
