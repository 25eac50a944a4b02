/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SimGrid's time-independent (TI) trace format, as `smpirun -replay` reads it and `smpirun -trace-ti` writes it:
 * lines "<rank> <action> <args>" (docs/ti-replay.md lists the actions), in one text file per rank listed in order in
 * an index file, or in one file for every rank. The writer of simrun's own runs, and the bounded readers of traces,
 * index files and smpirun hostfiles. */
#ifndef SIM_TI_H
#define SIM_TI_H

#include <stddef.h>

/* Message sizes are counts of an MPI datatype, given by SMPI's code as an optional last field (MPI_BYTE when absent).
 * The codes of SimGrid 3.32's predefined types, as `smpirun -trace-ti` writes them. */
enum { SIM_TI_MPI_BYTE = 6 };

/* SMPI's MPI_ANY_TAG (include/smpi/smpi.h), which smpirun -trace-ti writes for a receive from any tag. Other negative
 * tags are SMPI's own collectives' (COLL_TAG_*, src/smpi/include/private.hpp): its replay passes a trace's tag on
 * unchecked, so a negative one would match its collectives' messages. */
enum { SIM_TI_ANY_TAG = -444 };

/* The size in bytes of the datatype with SMPI 3.32 code `code` (-1 to 59: 0 double, 1 int, 2 char, 3 short, 4 long,
 * 5 float, 6 byte, ...); -1 for a code SMPI does not define. */
int sim_ti_type_size(int code);

/* strtod(text, end), faster on what most of a trace's fields are: a whole number of at most 15 digits, optionally
 * negative, that ends the text (converted exactly, as strtod converts it; errno untouched). */
double sim_ti_number(const char *text, char **end);

/* A recorder of every rank's actions, in memory until saved (opening thousands of files at once would exceed the
 * descriptor limit). */
typedef struct sim_ti_writer sim_ti_writer_t;

/* NULL when out of memory or nranks < 1. Free with sim_ti_writer_free (accepts NULL). */
sim_ti_writer_t *sim_ti_writer_new(int nranks);
void sim_ti_writer_free(sim_ti_writer_t *writer);

/* Appends "<rank> <action>" to the rank's file; `action` is printf-like. Returns 0, or SIM_EIO when the write fails. */
int sim_ti_action(sim_ti_writer_t *writer, int rank, const char *format, ...) __attribute__((format(printf, 3, 4)));

/* Writes `dir`/rank-<i>.txt for every rank, the index `dir`/index.txt, which lists them by absolute path (smpirun
 * opens them from its own folder), and `dir`/hostfile.txt, rank i's host on line i (hosts[i]), so that
 * `smpirun -hostfile` puts every rank where the run had it; `dir` must exist. Returns 0, or SIM_EIO with a message. */
int sim_ti_writer_save(sim_ti_writer_t *writer, const char *const *hosts, const char *dir, char *err, size_t errlen);

/* A trace to replay: its files, one per rank, or a single one with every rank's lines. */
typedef struct sim_ti_trace sim_ti_trace_t;

/* Opens the trace `index` names as smpirun -replay takes it: a list of per-rank files (relative paths from the
 * index's folder, else from the current folder as smpirun takes them), a list of one file holding every rank's
 * lines, or that file itself (told by its first line, an action: only that line is read here). Every file must be a
 * regular file of bounded size. Returns 0 with a new trace in *trace
 * (free with sim_ti_trace_free, accepts NULL), or SIM_EIO / SIM_ENOMEM with a message. */
int sim_ti_open(const char *index, sim_ti_trace_t **trace, char *err, size_t errlen);
void sim_ti_trace_free(sim_ti_trace_t *trace);
/* Its number of files: one per rank, or 1 for the one-file layout. */
int sim_ti_trace_files(const sim_ti_trace_t *trace);
/* File i's path, borrowed. */
const char *sim_ti_trace_path(const sim_ti_trace_t *trace, int i);

/* Reads an smpirun hostfile: one host name per line, blank lines skipped, "name:n" for n ranks on the host. Returns
 * 0 with a new array of new strings in *hosts (free with sim_ti_paths_free) and their number, or SIM_EIO /
 * SIM_ENOMEM with a message. */
int sim_ti_read_hostfile(const char *path, char ***hosts, int *count, char *err, size_t errlen);
void sim_ti_paths_free(char **paths, int count);

/* A line reader that refuses what no trace holds: NUL bytes, lines longer than `max_fields` fields of 31
 * characters (plus 4 KiB), files that are not regular or beyond 64 GiB. */
typedef struct sim_ti_reader sim_ti_reader_t;
enum { SIM_TI_BINARY = -101, SIM_TI_LONG_LINE = -102, SIM_TI_READ_ERROR = -103 };

/* Returns 0 with a new reader, or SIM_EIO / SIM_ENOMEM with a message. */
int sim_ti_reader_open(const char *path, size_t max_fields, sim_ti_reader_t **reader, char *err, size_t errlen);
void sim_ti_reader_close(sim_ti_reader_t *reader);
/* The next line, without its newline, in the reader's buffer (valid until the next call): 0; 1 at the end of the
 * file; or SIM_TI_BINARY, SIM_TI_LONG_LINE, SIM_TI_READ_ERROR, which sim_ti_reader_error explains with FILE:LINE. */
int sim_ti_reader_next(sim_ti_reader_t *reader, char **text, size_t *len);
void sim_ti_reader_error(const sim_ti_reader_t *reader, int rc, char *err, size_t errlen);

#endif
