/* SimGrid's time-independent (TI) trace format, as `smpirun -replay` reads it and `smpirun -trace-ti` writes it: one
 * text file per rank of lines "<rank> <action> <args>" (init, compute FLOPS, send DST TAG BYTES, recv SRC TAG BYTES,
 * sleep SECONDS, bcast BYTES ROOT, barrier, finalize), listed in order in an index file. */
#ifndef SIM_TI_H
#define SIM_TI_H

#include <stddef.h>

/* Message sizes are counts of an MPI datatype, given by SMPI's code as an optional last field (MPI_BYTE when absent).
 * The codes of SimGrid 3.32's predefined types, as `smpirun -trace-ti` writes them. */
enum { SIM_TI_MPI_BYTE = 6 };

/* The size in bytes of the datatype with SMPI code `code`: 0 double, 1 int, 2 char, 3 short, 4 long, 5 float, 6 byte,
 * 9 unsigned char; -1 for a code not known here. */
int sim_ti_type_size(int code);

/* A recorder of every rank's actions, in memory until saved (opening thousands of files at once would exceed the
 * descriptor limit). */
typedef struct sim_ti_writer sim_ti_writer_t;

/* NULL when out of memory or nranks < 1. Free with sim_ti_writer_free (accepts NULL). */
sim_ti_writer_t *sim_ti_writer_new(int nranks);
void sim_ti_writer_free(sim_ti_writer_t *writer);

/* Appends "<rank> <action>" to the rank's file; `action` is printf-like. Returns 0, or -1 when out of memory. */
int sim_ti_action(sim_ti_writer_t *writer, int rank, const char *format, ...) __attribute__((format(printf, 3, 4)));

/* Writes `dir`/rank-<i>.txt for every rank, the index `dir`/index.txt, which lists them by absolute path (smpirun
 * opens them from its own folder), and `dir`/hostfile.txt, rank i's host on line i (hosts[i]), so that
 * `smpirun -hostfile` puts every rank where the run had it; `dir` must exist. Returns 0, or SIM_EIO with a message. */
int sim_ti_writer_save(sim_ti_writer_t *writer, const char *const *hosts, const char *dir, char *err, size_t errlen);

/* The per-rank files an index lists, relative paths taken from the index's folder. Returns 0 with a new array of new
 * strings in *paths (free with sim_ti_paths_free) and their number in *count, or SIM_EIO / SIM_ENOMEM with a message.
 */
int sim_ti_read_index(const char *index, char ***paths, int *count, char *err, size_t errlen);
void sim_ti_paths_free(char **paths, int count);

#endif
