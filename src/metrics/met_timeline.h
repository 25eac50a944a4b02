/* The reader of measured timelines: the timeline-I.txt files that libsimrun-trace.so writes for each rank of a real
 * MPI run (format in docs/tracer.md), read into the trace model so that the lost-cycle views analyse a measured run as
 * they analyse a simulated one (Lemeire's EPPA, seed 000 §1.2). No SimGrid, no MPI. */
#ifndef MET_TIMELINE_H
#define MET_TIMELINE_H

#include "met_trace.h"

#include <stddef.h>

/* Reads folder `dir`: timeline-0.txt, whose header gives the number of ranks P, then timeline-1.txt ..
 * timeline-(P-1).txt. Each interval becomes one of the trace's (category and phase as written; peer, bytes; no hops
 * nor compute parts: a measurement cannot tell them). Returns a new trace (free with met_trace_free), or NULL with
 * one message in err, "FILE:LINE: what is wrong; how to fix" ("FILE: ..." when no line is to blame): a missing rank,
 * a malformed or out-of-order line, or out of memory. A file cut short (a run killed before MPI_Finalize: no "# end"
 * line, perhaps half a last line) is read up to its last whole line: the trace is returned and err names the first
 * such file and line ("FILE:LINE: cut short: ..."); err is "" when every file is whole. */
met_trace_t *met_timeline_read(const char *dir, char *err, size_t errlen);

#endif
