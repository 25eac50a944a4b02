/* Reads the platform's machine model (seed 001 eqs. 3-6) from root-zone properties and evaluates it. */
#include "sim_machine.h"
#include "sim_engine.h"
#include "sim_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses exactly `count` numbers from property `name` into out; an absent property leaves out unchanged. */
static int read_numbers(const char *name, double *out, int count, char *err, size_t errlen)
{
  const char *text = sim_engine_property(name);
  if (!text)
    return 0;
  const char *cursor = text;
  for (int i = 0; i < count; i++) {
    char *end = NULL;
    out[i] = strtod(cursor, &end);
    if (end == cursor)
      goto malformed;
    cursor = end;
  }
  while (*cursor == ' ' || *cursor == '\t')
    cursor++;
  if (*cursor == '\0')
    return 0;
malformed:
  snprintf(err, errlen, "platform property %s = \"%s\": expected %d number%s", name, text, count, count > 1 ? "s" : "");
  return SIM_EPLATFORM;
}

int sim_machine_read(sim_machine_t *machine, char *err, size_t errlen)
{
  memset(machine, 0, sizeof *machine);
  const char *model = sim_engine_property("simrun:comm-model");
  if (model && strcmp(model, "piecewise") != 0) {
    snprintf(err, errlen, "platform property simrun:comm-model = \"%s\": the only model is \"piecewise\"", model);
    return SIM_EPLATFORM;
  }
  int rc = 0;
  if (model) {
    machine->piecewise = 1;
    if (!sim_engine_property("simrun:comm-small-us") || !sim_engine_property("simrun:comm-large-us") ||
        !sim_engine_property("simrun:comm-packet-bytes")) {
      snprintf(err, errlen, "the piecewise comm model needs simrun:comm-packet-bytes, simrun:comm-small-us and "
                            "simrun:comm-large-us");
      return SIM_EPLATFORM;
    }
    rc = read_numbers("simrun:comm-packet-bytes", &machine->packet_bytes, 1, err, errlen);
    rc = rc ? rc : read_numbers("simrun:comm-small-us", machine->small, 4, err, errlen);
    rc = rc ? rc : read_numbers("simrun:comm-large-us", machine->large, 4, err, errlen);
  }
  rc = rc ? rc : read_numbers("simrun:link-init-us", &machine->link_init_us, 1, err, errlen);
  rc = rc ? rc : read_numbers("simrun:io-input-us", machine->input_us, 2, err, errlen);
  rc = rc ? rc : read_numbers("simrun:io-output-us", machine->output_us, 2, err, errlen);
  return rc;
}

double sim_machine_msg_time(const void *model, double bytes, int hops)
{
  const sim_machine_t *machine = model;
  const double *c = bytes <= machine->packet_bytes ? machine->small : machine->large;
  return 1e-6 * (c[0] + c[1] * bytes + c[2] * hops + c[3] * bytes * hops);
}

double sim_machine_io_time(const sim_machine_t *machine, sim_io_dir_t dir, double bytes)
{
  const double *c = dir == SIM_INPUT ? machine->input_us : machine->output_us;
  return 1e-6 * (c[0] + c[1] * bytes);
}
