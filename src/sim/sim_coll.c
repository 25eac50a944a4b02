/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The broadcasts as plans of point-to-point operations per member (pure): one-to-all and neighbour relay (seed 001
 * §4.2, eqs. 14-15), binomial tree (seed 003 §3), pipelined chain, scatter + ring allgather (van de Geijn), rows then
 * columns of a mesh. MPI's other collectives are planned in sim_coll_mpi.c, and every plan is run by sim_coll_run.c. */
#include "sim_coll.h"
#include "sim_coll_ops.h"
#include "sim_error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const sim_bcast_names[] = {"one-to-all",        "neighbour", "binomial", "pipelined-chain",
                                       "scatter-allgather", "mesh",      NULL};

int sim_bcast_parse(const char *name)
{
  for (int alg = 0; alg < SIM_BCAST_COUNT; alg++)
    if (strcmp(name, sim_bcast_names[alg]) == 0)
      return alg;
  return -1;
}

/* The non-optimised broadcast: the root sends to members 0, 1, ..., n-1 in turn, whatever their distance. */
static void one_to_all(const sim_coll_plan_t *plan, int me, const out_t *out)
{
  if (me != plan->root) {
    put(out, 0, plan->root, 0, plan->bytes);
    return;
  }
  for (int i = 0; i < plan->count; i++)
    if (i != plan->root)
      put(out, 1, i, 0, plan->bytes);
}

/* Members in a line: at[i] is the member at position i (the group's order when at is NULL); the root is at `root`. */
typedef struct line {
  const int *at;
  int len;
  int root;
} line_t;

static int line_member(const line_t *line, int pos)
{
  return line->at ? line->at[pos] : pos;
}

/* Whether position `pos` is on the line. */
static int on_line(const line_t *line, int pos)
{
  return pos >= 0 && pos < line->len;
}

/* The relay along a line, the data cut into `segments` parts: each part travels both ways from the root, every member
 * passing it on to the next one away from the root. The root serves its longer side first, so that the far end gets
 * the data as early as possible. */
static void relay(const line_t *line, int pos, double bytes, int segments, const out_t *out)
{
  int root = line->root;
  int up_first = line->len - 1 - root >= root;
  int toward = pos > root ? -1 : 1; /* from a non-root member, the direction of the root */
  int first = pos == root ? (up_first ? 1 : -1) : -toward;
  int second = pos == root ? -first : 0;
  for (int s = 0; s < segments; s++) {
    double from = cut(bytes, segments, s);
    double to = cut(bytes, segments, s + 1);
    if (pos != root)
      put(out, 0, line_member(line, pos + toward), from, to);
    if (on_line(line, pos + first))
      put(out, 1, line_member(line, pos + first), from, to);
    if (second && on_line(line, pos + second))
      put(out, 1, line_member(line, pos + second), from, to);
  }
}

/* One message of a binomial tree with peer `rel_peer` (relative to the root): the whole data, or when scattering the
 * n pieces of the subtree of relative member `sub`, [sub, sub + span). */
static void tree_message(const sim_coll_plan_t *plan, const out_t *out, int send, int rel_peer, int sub, int span,
                         int scatter)
{
  int n = plan->count;
  int peer = (rel_peer + plan->root) % n;
  if (!scatter)
    put(out, send, peer, 0, plan->bytes);
  else
    put(out, send, peer, cut(plan->bytes, n, sub), cut(plan->bytes, n, sub + span < n ? sub + span : n));
}

void sim_coll_binomial_tree(const sim_coll_plan_t *plan, int me, int scatter, const out_t *out)
{
  int n = plan->count;
  int rel = (me - plan->root + n) % n;
  int mask = low_bit(rel, n);
  if (rel != 0)
    tree_message(plan, out, 0, rel - mask, rel, mask, scatter);
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (rel + mask < n)
      tree_message(plan, out, 1, rel + mask, rel + mask, mask, scatter);
}

/* Whether relative member `rel` holds piece q after the scatter: the root holds every piece, others their subtree's. */
static int holds(int rel, int q, int n)
{
  return rel == 0 || (q >= rel && q < rel + low_bit(rel, n));
}

static void piece_message(const sim_coll_plan_t *plan, const out_t *out, int send, int rel_peer, int q)
{
  int n = plan->count;
  put(out, send, (rel_peer + plan->root) % n, cut(plan->bytes, n, q), cut(plan->bytes, n, q + 1));
}

/* Ring allgather after the scatter, in relative order: at step j every member passes the piece it got at step j-1 (its
 * own at step 1) to the next one. A piece the receiver holds already is not sent, so every member receives every piece
 * exactly once and the root nothing: the ring is in effect a chain from the root. Even members send first and odd ones
 * receive first, so that synchronous neighbours pair up instead of all waiting on their successor. */
static void ring_allgather(const sim_coll_plan_t *plan, int me, const out_t *out)
{
  int n = plan->count;
  int rel = (me - plan->root + n) % n;
  for (int j = 1; j < n; j++) {
    int q_in = (rel - j + n) % n;
    int q_out = (rel - j + 1 + n) % n;
    int sends = rel + 1 < n && !holds(rel + 1, q_out, n);
    if (rel % 2 == 0 && sends)
      piece_message(plan, out, 1, rel + 1, q_out);
    if (!holds(rel, q_in, n))
      piece_message(plan, out, 0, rel - 1, q_in);
    if (rel % 2 == 1 && sends)
      piece_message(plan, out, 1, rel + 1, q_out);
  }
}

/* A member's place on the mesh, and its distance in rows from the root's row (-1 for the root itself). */
typedef struct cell {
  int row;
  int col;
  int member;
  int from_root_row;
} cell_t;

static int by_column_then_row(const void *a, const void *b)
{
  const cell_t *x = a;
  const cell_t *y = b;
  if (x->col != y->col)
    return x->col < y->col ? -1 : 1;
  if (x->row != y->row)
    return x->row < y->row ? -1 : 1;
  return (x->member > y->member) - (x->member < y->member);
}

/* Member i's coordinates: its host's, or its place in a virtual grid of ceil(sqrt(n)) columns. */
static void member_cell(const sim_coll_plan_t *plan, int i, cell_t *cell)
{
  int width = 1;
  while (width * width < plan->count)
    width++;
  cell->member = i;
  cell->row = plan->rows ? plan->rows[i] : i / width;
  cell->col = plan->cols ? plan->cols[i] : i % width;
}

/* The two lines of the mesh broadcast as seen by one member: the column leaders, one per column in column order (the
 * member nearest the root's row leads; the root leads its own column), and the member's own column in row order. */
typedef struct mesh_lines {
  line_t leaders;
  line_t column;
  int leader_pos; /* the member's position among the leaders, or -1 */
  int column_pos; /* its position in its column */
} mesh_lines_t;

/* Fills the lines of member `me` from cells sorted by column then row. leaders and column have room for n members. */
static void mesh_lines(const cell_t *cells, int n, int me, int *leaders, int *column, mesh_lines_t *lines)
{
  *lines = (mesh_lines_t){.leaders = {.at = leaders}, .column = {.at = column}, .leader_pos = -1};
  for (int start = 0, end; start < n; start = end) {
    int lead = start;
    int mine = 0;
    for (end = start; end < n && cells[end].col == cells[start].col; end++) {
      lead = cells[end].from_root_row < cells[lead].from_root_row ? end : lead;
      mine |= cells[end].member == me;
    }
    if (cells[lead].from_root_row < 0)
      lines->leaders.root = lines->leaders.len;
    if (cells[lead].member == me)
      lines->leader_pos = lines->leaders.len;
    leaders[lines->leaders.len++] = cells[lead].member;
    for (int i = start; mine && i < end; i++) {
      lines->column.root = i == lead ? lines->column.len : lines->column.root;
      lines->column_pos = cells[i].member == me ? lines->column.len : lines->column_pos;
      column[lines->column.len++] = cells[i].member;
    }
  }
}

/* Mesh broadcast: the relay along the line of column leaders (the root's row when the group is a rectangle), then in
 * every column the relay from its leader. Returns 0 or SIM_ENOMEM. */
static int mesh(const sim_coll_plan_t *plan, int me, const out_t *out)
{
  int n = plan->count;
  cell_t *cells = malloc((size_t)n * sizeof *cells);
  int *leaders = malloc((size_t)n * sizeof *leaders);
  int *column = malloc((size_t)n * sizeof *column);
  int rc = cells && leaders && column ? 0 : SIM_ENOMEM;
  if (rc == 0) {
    cell_t root;
    member_cell(plan, plan->root, &root);
    for (int i = 0; i < n; i++) {
      member_cell(plan, i, &cells[i]);
      cells[i].from_root_row = i == plan->root ? -1 : abs(cells[i].row - root.row);
    }
    qsort(cells, (size_t)n, sizeof *cells, by_column_then_row);
    mesh_lines_t lines;
    mesh_lines(cells, n, me, leaders, column, &lines);
    if (lines.leader_pos >= 0)
      relay(&lines.leaders, lines.leader_pos, plan->bytes, 1, out);
    relay(&lines.column, lines.column_pos, plan->bytes, 1, out);
  }
  free(cells);
  free(leaders);
  free(column);
  return rc;
}

int sim_coll_plan(const sim_coll_plan_t *plan, int me, sim_coll_emit_fn emit, void *ctx)
{
  out_t out = {.emit = emit, .ctx = ctx};
  if (plan->count < 2)
    return 0;
  switch (plan->alg) {
  case SIM_BCAST_NEIGHBOUR:
  case SIM_BCAST_PIPELINE: {
    line_t line = {.at = NULL, .len = plan->count, .root = plan->root};
    int segments = plan->alg == SIM_BCAST_NEIGHBOUR ? 1 : (int)fmax(1, ceil(plan->bytes / SIM_BCAST_SEGMENT_BYTES));
    relay(&line, me, plan->bytes, segments, &out);
    return 0;
  }
  case SIM_BCAST_BINOMIAL:
    sim_coll_binomial_tree(plan, me, 0, &out);
    return 0;
  case SIM_BCAST_SCATTER_RING:
    sim_coll_binomial_tree(plan, me, 1, &out);
    ring_allgather(plan, me, &out);
    return 0;
  case SIM_BCAST_MESH:
    return mesh(plan, me, &out);
  default:
    one_to_all(plan, me, &out);
    return 0;
  }
}
