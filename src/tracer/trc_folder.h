/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to libsimrun-trace.so: the trace folder's gate (issue 48 item 1), passed at MPI_Init before any file of
 * the run is made (trc_folder.c). */
#ifndef TRC_FOLDER_H
#define TRC_FOLDER_H

/* Whether folder `dir` (SIMRUN_TRACE_DIR) may take this run's trace: it is a folder, or is missing with its parent an
 * existing folder; the one it will be is writable; and an existing one holds nothing but a trace's files (index.txt,
 * rank-N.txt, timeline-N.txt, incomplete-N), which the tracer replaces and removes, so that no input and no other file
 * of the user's is touched. 0, or -1 after one warning on stderr when `say` (the run is then not traced, the program
 * runs on). */
int trc_folder_check(const char *dir, int say);

/* The marker of a rank that has not finished: each rank makes TRC_INCOMPLETE "-RANK" before it opens its files and
 * removes it once it closed them whole at MPI_Finalize, so that a rank killed (even by SIGKILL), aborted or unable to
 * write leaves it behind, and simrun analyse refuses the folder by the rank's name (docs/tracer.md). */
#define TRC_INCOMPLETE "incomplete"

/* The rank of a per-rank entry of a trace folder (rank-N.txt, timeline-N.txt, incomplete-N), or -1 for any other
 * name. */
int trc_folder_rank_file(const char *name);

#endif
