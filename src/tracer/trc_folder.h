/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to libsimrun-trace.so: the trace folder's gate (issue 48 item 1), passed at MPI_Init before any file of
 * the run is made (trc_folder.c). */
#ifndef TRC_FOLDER_H
#define TRC_FOLDER_H

/* Whether folder `dir` (SIMRUN_TRACE_DIR) may take this run's trace: it is a folder, or is missing with its parent an
 * existing folder; the one it will be is writable; and an existing one holds nothing but a trace's files (index.txt,
 * rank-N.txt, timeline-N.txt), which the tracer replaces and removes, so that no input and no other file of the user's
 * is touched. 0, or -1 after one warning on stderr when `say` (the run is then not traced, the program runs on). */
int trc_folder_check(const char *dir, int say);

#endif
