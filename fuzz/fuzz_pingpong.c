/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libFuzzer target: the ping-pong CSV reader of simrun characterise (cli_characterise.h), the fit it feeds
 * (met_msgfit.h), and what simrun machine probe reads from the same file's comment lines (cli_probe.h: the bandwidths
 * the ranks saw, the first calls' costs). Any bytes must be read or refused with one FILE:LINE line, never crash, hang
 * or read without bound. */
#include "cli_characterise.h"
#include "cli_probe.h"
#include "fuzz_input.h"

#include <stdio.h>
#include <stdlib.h>

/* The fit searches the split over the distinct sizes (samples x sizes): kept small, so each input stays fast. */
#define FIT_MAX_SAMPLES 2000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (fuzz_write_input(data, size) != 0)
    abort();
  met_msg_sample_t *samples = NULL;
  size_t count = 0;
  char err[256];
  met_msgfit_t fit;
  if (cli_characterise_read(fuzz_input_path(), fuzz_input_path(), &samples, &count) == 0 && count <= FIT_MAX_SAMPLES) {
    met_msgfit(samples, count, -1, &fit, err, sizeof err);
    char seen[800], calls[1200];
    double us;
    cli_probe_seen(fuzz_input_path(), samples, count, 0, seen, sizeof seen);
    cli_probe_first_calls(fuzz_input_path(), fuzz_input_path(), &us, calls, sizeof calls);
  }
  free(samples);
  return 0;
}
