/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* OTF2 archives (libotf2) of kept traces, for Vampir, Scalasca and ViTE: a uniquely named process and location per
 * rank, a region per trace category, per MPI call and per phase label, MPI point-to-point events with sender, receiver,
 * bytes, tag and communicator as the trace's message ends give them, and an MPI collective with its root and
 * communicator per collective span of the trace (rep_otf2_calls.h). docs/pictures.md describes the mapping. */
#ifndef REP_OTF2_H
#define REP_OTF2_H

#include "met_trace.h"
#include "stu_study.h"

#include <stddef.h>

/* Writes `trace`, a whole one or a spilled one (its intervals read from its file), as the archive DIR/NAME.otf2 (with
 * DIR/NAME.def and DIR/NAME/), built in a temporary folder inside DIR and moved into place only when complete.
 * Timestamps count nanoseconds from the start of the run. Returns 0, or BAS_EIO with a message in err. */
int rep_otf2_write(const met_trace_t *trace, const char *dir, const char *name, char *err, size_t errlen);

/* Writes one archive per point with a kept trace (the per-process p's), named point-K after the point's index K from
 * 0, as --ti names its folders. Returns 0, or BAS_EIO with a message in err. */
int rep_otf2_study(const stu_study_t *study, const char *dir, char *err, size_t errlen);

#endif
