/* OTF2 archives of kept traces (rep_otf2.h): events per rank first, then the local and global definitions, all in a
 * temporary folder moved into place when complete. */
#define _XOPEN_SOURCE 700 /* mkdtemp, kill */
#include "rep_otf2.h"
#include "rep_report.h"

#include <otf2/otf2.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { COMM_WORLD = 0, GROUP_LOCATIONS = 0, GROUP_RANKS = 1, SYSTEM_NODE = 0 };

/* String ids: 0 is "", then one per region (categories, then phases), then one per rank, then the fixed names. */
typedef struct archive_ids {
  uint32_t nregions;
  uint32_t rank0;  /* "rank 0" */
  uint32_t fixed0; /* "MPI_COMM_WORLD", "simrun", "machine" */
} archive_ids_t;

/* One rank's event writer and its open phase region. */
typedef struct rank_events {
  OTF2_EvtWriter *writer;
  int phase;            /* the open phase, or -1 */
  OTF2_CollectiveOp op; /* the open phase's collective, or OTF2_UNDEFINED_TYPE */
  uint64_t sent, received;
  OTF2_ErrorCode rc; /* the first failure */
} rank_events_t;

static OTF2_TimeStamp ticks(double seconds)
{
  return (OTF2_TimeStamp)llround(seconds * 1e9); /* nanoseconds */
}

static OTF2_FlushType pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef location, void *caller, bool final)
{
  return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *user, OTF2_FileType type, OTF2_LocationRef location)
{
  return 0;
}

static const OTF2_FlushCallbacks flush_callbacks = {.otf2_pre_flush = pre_flush, .otf2_post_flush = post_flush};

static void check(rank_events_t *ev, OTF2_ErrorCode rc)
{
  if (ev->rc == OTF2_SUCCESS)
    ev->rc = rc;
}

/* The collective a phase label stands for: the skeletons' broadcasts, distributions (scatter) and collections
 * (gather); OTF2_UNDEFINED_TYPE for any other phase. */
static OTF2_CollectiveOp phase_collective(const char *label)
{
  if (strstr(label, "broadcast"))
    return OTF2_COLLECTIVE_OP_BCAST;
  if (strcmp(label, "distribution") == 0)
    return OTF2_COLLECTIVE_OP_SCATTERV;
  if (strcmp(label, "collection") == 0)
    return OTF2_COLLECTIVE_OP_GATHERV;
  return OTF2_UNDEFINED_TYPE;
}

static void region(rank_events_t *ev, double t, uint32_t id, int entering)
{
  check(ev, entering ? OTF2_EvtWriter_Enter(ev->writer, NULL, ticks(t), id)
                     : OTF2_EvtWriter_Leave(ev->writer, NULL, ticks(t), id));
}

static void close_phase(rank_events_t *ev, double t)
{
  if (ev->phase < 0)
    return;
  if (ev->op != OTF2_UNDEFINED_TYPE)
    check(ev, OTF2_EvtWriter_MpiCollectiveEnd(ev->writer, NULL, ticks(t), ev->op, COMM_WORLD, OTF2_UNDEFINED_UINT32,
                                              ev->sent, ev->received));
  region(ev, t, MET_CAT_COUNT + (uint32_t)ev->phase, 0);
  ev->phase = -1;
}

static void open_phase(rank_events_t *ev, const met_trace_t *trace, int phase, double t)
{
  ev->phase = phase;
  region(ev, t, MET_CAT_COUNT + (uint32_t)phase, 1);
  ev->op = phase_collective(met_trace_phase_name(trace, phase));
  ev->sent = ev->received = 0;
  if (ev->op != OTF2_UNDEFINED_TYPE)
    check(ev, OTF2_EvtWriter_MpiCollectiveBegin(ev->writer, NULL, ticks(t)));
}

/* Idle from `from` to `to` (a gap in the trace, or the tail up to T_par), outside any phase. */
static void idle(rank_events_t *ev, double from, double to)
{
  if (to <= from)
    return;
  close_phase(ev, from);
  region(ev, from, MET_CAT_IDLE, 1);
  region(ev, to, MET_CAT_IDLE, 0);
}

/* One interval: its phase, its category, and a message's send (at its start) or receive (at its end). */
static void interval(rank_events_t *ev, const met_trace_t *trace, const met_interval_t *iv)
{
  if (iv->phase != ev->phase) {
    close_phase(ev, iv->start);
    open_phase(ev, trace, iv->phase, iv->start);
  }
  region(ev, iv->start, iv->category, 1);
  uint64_t bytes = (uint64_t)llround(iv->bytes);
  if (iv->category == MET_CAT_COMM && iv->dir == MET_DIR_SEND) {
    check(ev, OTF2_EvtWriter_MpiSend(ev->writer, NULL, ticks(iv->start), (uint32_t)iv->peer, COMM_WORLD, 0, bytes));
    ev->sent += bytes;
  } else if (iv->category == MET_CAT_COMM && iv->dir == MET_DIR_RECV) {
    check(ev, OTF2_EvtWriter_MpiRecv(ev->writer, NULL, ticks(iv->end), (uint32_t)iv->peer, COMM_WORLD, 0, bytes));
    ev->received += bytes;
  }
  region(ev, iv->end, iv->category, 0);
}

/* Writes rank `rank`'s events; its event count in *count. */
static OTF2_ErrorCode rank_write(OTF2_Archive *archive, const met_trace_t *trace, int rank, uint64_t *count)
{
  rank_events_t ev = {.writer = OTF2_Archive_GetEvtWriter(archive, (OTF2_LocationRef)rank), .phase = -1};
  if (!ev.writer)
    return OTF2_ERROR_MEM_ALLOC_FAILED;
  const met_interval_t *iv = met_trace_intervals(trace, rank);
  double at = 0;
  for (size_t i = 0; i < met_trace_count(trace, rank); i++) {
    idle(&ev, at, iv[i].start);
    interval(&ev, trace, &iv[i]);
    at = iv[i].end;
  }
  close_phase(&ev, at);
  idle(&ev, at, met_trace_end(trace));
  check(&ev, OTF2_EvtWriter_GetNumberOfEvents(ev.writer, count));
  check(&ev, OTF2_Archive_CloseEvtWriter(archive, ev.writer));
  return ev.rc;
}

static OTF2_ErrorCode write_events(OTF2_Archive *archive, const met_trace_t *trace, uint64_t *counts)
{
  OTF2_ErrorCode rc = OTF2_Archive_OpenEvtFiles(archive);
  for (int r = 0; rc == OTF2_SUCCESS && r < met_trace_nranks(trace); r++)
    rc = rank_write(archive, trace, r, &counts[r]);
  return rc == OTF2_SUCCESS ? OTF2_Archive_CloseEvtFiles(archive) : rc;
}

/* Every location's local definitions, empty (the global ones say it all), as readers expect the files. */
static OTF2_ErrorCode write_local_defs(OTF2_Archive *archive, int nranks)
{
  OTF2_ErrorCode rc = OTF2_Archive_OpenDefFiles(archive);
  for (int r = 0; rc == OTF2_SUCCESS && r < nranks; r++) {
    OTF2_DefWriter *writer = OTF2_Archive_GetDefWriter(archive, (OTF2_LocationRef)r);
    rc = writer ? OTF2_Archive_CloseDefWriter(archive, writer) : OTF2_ERROR_MEM_ALLOC_FAILED;
  }
  return rc == OTF2_SUCCESS ? OTF2_Archive_CloseDefFiles(archive) : rc;
}

static OTF2_ErrorCode write_strings(OTF2_GlobalDefWriter *defs, const met_trace_t *trace, const archive_ids_t *ids)
{
  char name[32];
  OTF2_ErrorCode rc = OTF2_GlobalDefWriter_WriteString(defs, 0, "");
  for (uint32_t i = 0; rc == OTF2_SUCCESS && i < ids->nregions; i++)
    rc = OTF2_GlobalDefWriter_WriteString(defs, 1 + i,
                                          i < MET_CAT_COUNT ? met_category_name((met_category_t)i)
                                                            : met_trace_phase_name(trace, (int)(i - MET_CAT_COUNT)));
  for (int r = 0; rc == OTF2_SUCCESS && r < met_trace_nranks(trace); r++) {
    snprintf(name, sizeof name, "rank %d", r);
    rc = OTF2_GlobalDefWriter_WriteString(defs, ids->rank0 + (uint32_t)r, name);
  }
  static const char *const fixed[] = {"MPI_COMM_WORLD", "simrun", "machine"};
  for (uint32_t i = 0; rc == OTF2_SUCCESS && i < 3; i++)
    rc = OTF2_GlobalDefWriter_WriteString(defs, ids->fixed0 + i, fixed[i]);
  return rc;
}

/* Regions: one per category (communication and idling as MPI point-to-point work), one per phase label. */
static OTF2_ErrorCode write_regions(OTF2_GlobalDefWriter *defs, const archive_ids_t *ids)
{
  OTF2_ErrorCode rc = OTF2_SUCCESS;
  for (uint32_t i = 0; rc == OTF2_SUCCESS && i < ids->nregions; i++) {
    int mpi = i == MET_CAT_COMM || i == MET_CAT_IDLE;
    OTF2_RegionRole role = i >= MET_CAT_COUNT ? OTF2_REGION_ROLE_CODE
                           : mpi              ? OTF2_REGION_ROLE_POINT2POINT
                                              : OTF2_REGION_ROLE_FUNCTION;
    rc = OTF2_GlobalDefWriter_WriteRegion(defs, i, 1 + i, 1 + i, 0, role, mpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER,
                                          OTF2_REGION_FLAG_NONE, 0, 0, 0);
  }
  return rc;
}

/* The machine, a process and a location per rank, and MPI_COMM_WORLD over all of them. */
static OTF2_ErrorCode write_ranks(OTF2_GlobalDefWriter *defs, int nranks, const archive_ids_t *ids,
                                  const uint64_t *counts)
{
  OTF2_ErrorCode rc = OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, SYSTEM_NODE, ids->fixed0 + 1, ids->fixed0 + 2,
                                                               OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  uint64_t *members = malloc((size_t)nranks * sizeof *members);
  if (!members)
    return OTF2_ERROR_MEM_ALLOC_FAILED;
  for (int r = 0; r < nranks; r++)
    members[r] = (uint64_t)r;
  for (int r = 0; rc == OTF2_SUCCESS && r < nranks; r++)
    rc = OTF2_GlobalDefWriter_WriteLocationGroup(defs, (OTF2_LocationGroupRef)r, ids->rank0 + (uint32_t)r,
                                                 OTF2_LOCATION_GROUP_TYPE_PROCESS, SYSTEM_NODE,
                                                 OTF2_UNDEFINED_LOCATION_GROUP);
  for (int r = 0; rc == OTF2_SUCCESS && r < nranks; r++)
    rc = OTF2_GlobalDefWriter_WriteLocation(defs, (OTF2_LocationRef)r, ids->rank0 + (uint32_t)r,
                                            OTF2_LOCATION_TYPE_CPU_THREAD, counts[r], (OTF2_LocationGroupRef)r);
  if (rc == OTF2_SUCCESS)
    rc = OTF2_GlobalDefWriter_WriteGroup(defs, GROUP_LOCATIONS, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                         OTF2_GROUP_FLAG_NONE, (uint32_t)nranks, members);
  if (rc == OTF2_SUCCESS)
    rc = OTF2_GlobalDefWriter_WriteGroup(defs, GROUP_RANKS, 0, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                         OTF2_GROUP_FLAG_NONE, (uint32_t)nranks, members);
  if (rc == OTF2_SUCCESS)
    rc = OTF2_GlobalDefWriter_WriteComm(defs, COMM_WORLD, ids->fixed0, GROUP_RANKS, OTF2_UNDEFINED_COMM,
                                        OTF2_COMM_FLAG_NONE);
  free(members);
  return rc;
}

static OTF2_ErrorCode write_global_defs(OTF2_Archive *archive, const met_trace_t *trace, const uint64_t *counts)
{
  OTF2_GlobalDefWriter *defs = OTF2_Archive_GetGlobalDefWriter(archive);
  if (!defs)
    return OTF2_ERROR_MEM_ALLOC_FAILED;
  int nranks = met_trace_nranks(trace);
  archive_ids_t ids = {.nregions = MET_CAT_COUNT + (uint32_t)met_trace_phase_count(trace)};
  ids.rank0 = 1 + ids.nregions;
  ids.fixed0 = ids.rank0 + (uint32_t)nranks;
  OTF2_ErrorCode rc = OTF2_GlobalDefWriter_WriteClockProperties(defs, 1000000000, 0, ticks(met_trace_end(trace)) + 1,
                                                                OTF2_UNDEFINED_TIMESTAMP);
  if (rc == OTF2_SUCCESS)
    rc = write_strings(defs, trace, &ids);
  if (rc == OTF2_SUCCESS)
    rc = write_regions(defs, &ids);
  return rc == OTF2_SUCCESS ? write_ranks(defs, nranks, &ids, counts) : rc;
}

/* The archive `name` in folder `dir`. */
static OTF2_ErrorCode write_archive(const met_trace_t *trace, const char *dir, const char *name)
{
  uint64_t *counts = calloc((size_t)met_trace_nranks(trace), sizeof *counts);
  OTF2_Archive *archive = counts ? OTF2_Archive_Open(dir, name, OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                                                     OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE)
                                 : NULL;
  OTF2_ErrorCode rc =
      archive ? OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL) : OTF2_ERROR_MEM_ALLOC_FAILED;
  if (rc == OTF2_SUCCESS)
    rc = OTF2_Archive_SetSerialCollectiveCallbacks(archive);
  if (rc == OTF2_SUCCESS)
    rc = write_events(archive, trace, counts);
  if (rc == OTF2_SUCCESS)
    rc = write_local_defs(archive, met_trace_nranks(trace));
  if (rc == OTF2_SUCCESS)
    rc = write_global_defs(archive, trace, counts);
  OTF2_ErrorCode closed = archive ? OTF2_Archive_Close(archive) : OTF2_SUCCESS;
  free(counts);
  return rc == OTF2_SUCCESS ? closed : rc;
}

/* Moves the archive's folder, definitions and anchor file from `temp` into `dir`, the anchor last, replacing an
 * earlier archive of the same name. 0, or -1 with errno set. */
static int move_archive(const char *temp, const char *dir, const char *name)
{
  static const char *const suffixes[] = {"", ".def", ".otf2"};
  char from[8192], to[8192];
  for (size_t i = 0; i < 3; i++) {
    snprintf(from, sizeof from, "%s/%s%s", temp, name, suffixes[i]);
    snprintf(to, sizeof to, "%s/%s%s", dir, name, suffixes[i]);
    if (i == 0)
      rep_file_remove_tree(to);
    if (rename(from, to) != 0)
      return -1;
  }
  return 0;
}

/* An archive built in `temp`, to be moved into `dir` as `name` (rep_file_defer's state). */
typedef struct archive_move {
  char temp[4096];
  char dir[4096];
  char name[256];
} archive_move_t;

static int move_commit(void *state, char *err, size_t errlen)
{
  archive_move_t *m = state;
  int rc = move_archive(m->temp, m->dir, m->name);
  if (rc != 0)
    snprintf(err, errlen, "cannot move the OTF2 archive '%s' into '%s': %s", m->name, m->dir, strerror(errno));
  rep_file_remove_tree(m->temp);
  free(m);
  return rc;
}

static void move_rollback(void *state)
{
  archive_move_t *m = state;
  rep_file_remove_tree(m->temp);
  free(m);
}

/* Removes the temporary folders ".simrun-otf2.PID.XXXXXX" in `dir` that a killed simrun left (its process is gone). */
static void remove_stale(const char *dir)
{
  DIR *d = opendir(dir);
  for (struct dirent *e; d && (e = readdir(d));) {
    char *end = NULL;
    if (strncmp(e->d_name, ".simrun-otf2.", 13) != 0)
      continue;
    long pid = strtol(e->d_name + 13, &end, 10);
    char stale[8192];
    snprintf(stale, sizeof stale, "%s/%s", dir, e->d_name);
    if (pid > 0 && *end == '.' && kill((pid_t)pid, 0) != 0 && errno == ESRCH)
      rep_file_remove_tree(stale);
  }
  if (d)
    closedir(d);
}

int rep_otf2_write(const met_trace_t *trace, const char *dir, const char *name, char *err, size_t errlen)
{
  archive_move_t *m = calloc(1, sizeof *m);
  if (!m) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  remove_stale(dir);
  snprintf(m->temp, sizeof m->temp, "%s/.simrun-otf2.%ld.XXXXXX", dir, (long)getpid());
  snprintf(m->dir, sizeof m->dir, "%s", dir);
  snprintf(m->name, sizeof m->name, "%s", name);
  if (!mkdtemp(m->temp)) {
    snprintf(err, errlen, "cannot write in '%s': %s; check that the folder exists and is writable", dir,
             strerror(errno));
    free(m);
    return -1;
  }
  OTF2_ErrorCode rc = write_archive(trace, m->temp, name);
  if (rc == OTF2_SUCCESS) /* moved now, or with the run's other outputs inside the output transaction */
    return rep_file_defer(move_commit, move_rollback, m, err, errlen);
  snprintf(err, errlen, "writing the OTF2 archive '%s/%s.otf2' failed: %s", dir, name, OTF2_Error_GetDescription(rc));
  move_rollback(m);
  return -1;
}

int rep_otf2_study(const stu_study_t *study, const char *dir, char *err, size_t errlen)
{
  char name[32];
  for (size_t i = 0; i < study->npoints; i++) {
    if (!study->points[i].trace)
      continue;
    snprintf(name, sizeof name, "point-%zu", i);
    if (rep_otf2_write(study->points[i].trace, dir, name, err, errlen) != 0)
      return -1;
  }
  return 0;
}
