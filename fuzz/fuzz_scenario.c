/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libFuzzer target: the scenario loader (libxml2, the schema, the fields) and the checks after it (the skeleton's
 * parameters, the outputs' folder). Any input must give a scenario or one error, never a crash or a leak. */
#include "app_catalogue.h"
#include "fuzz_input.h"
#include "scn_scenario.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (fuzz_write_input(data, size) != 0)
    abort();
  scn_scenario_t *s = NULL;
  scn_error_t err;
  if (scn_load(fuzz_input_path(), &s, &err) == 0) {
    const app_skeleton_t *skeleton = app_find(s->skeleton);
    if (skeleton && scn_check(s, skeleton->spec, &err) == 0) {
      scn_check_output(s, s->csv, "csv", &err);
      scn_check_output(s, s->json, "json", &err);
    }
  } else if (strchr(err.message, '\n') || strchr(err.file, '\n')) {
    abort(); /* an error is one line */
  }
  scn_free(s);
  return 0;
}
