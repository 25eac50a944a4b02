/* Collective algorithms built on point-to-point messages. Broadcasts: one-to-all and neighbour relay (seed 001 §4.2,
 * eqs. 14-15), binomial tree (seed 003 §3), pipelined chain, scatter + ring allgather (van de Geijn), rows then
 * columns of a mesh. The other collectives follow SMPI 3.32's (src/smpi/colls/). Each is a plan of operations per
 * member (pure), carried out with the replay layer's messages. */
#include "sim_coll.h"
#include "sim_error.h"
#include "sim_mark.h"
#include "sim_replay.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/asserts.h>

const char *const sim_bcast_names[] = {"one-to-all",        "neighbour", "binomial", "pipelined-chain",
                                       "scatter-allgather", "mesh",      NULL};

int sim_bcast_parse(const char *name)
{
  for (int alg = 0; alg < SIM_BCAST_COUNT; alg++)
    if (strcmp(name, sim_bcast_names[alg]) == 0)
      return alg;
  return -1;
}

const char *sim_bcast_name(sim_bcast_alg_t alg)
{
  return alg < SIM_BCAST_COUNT ? sim_bcast_names[alg] : "unknown";
}

typedef struct out {
  sim_coll_emit_fn emit;
  void *ctx;
} out_t;

/* Emits one operation on bytes [from, to) of the data. */
static void put(const out_t *out, int send, int peer, double from, double to)
{
  sim_coll_op_t op = {.send = send, .peer = peer, .offset = from, .bytes = to - from};
  out->emit(out->ctx, &op);
}

/* Emits one posted operation (combine: a received piece is reduced into the receiver's). */
static void post(const out_t *out, int send, int peer, double from, double to, int combine)
{
  sim_coll_op_t op = {.send = send, .peer = peer, .offset = from, .bytes = to - from, .post = 1, .combine = combine};
  out->emit(out->ctx, &op);
}

static void wait_all(const out_t *out)
{
  sim_coll_op_t op = {.peer = SIM_COLL_WAITALL};
  out->emit(out->ctx, &op);
}

/* Boundary s of `bytes` cut into k parts of whole bytes, as equal as can be: part s is [cut(s), cut(s + 1)). */
static double cut(double bytes, int k, int s)
{
  return s >= k ? bytes : floor(bytes * s / k);
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

/* The lowest set bit of relative index `rel`; n rounded up to a power of two for the root (rel = 0). */
static int low_bit(int rel, int n)
{
  int mask = 1;
  while (mask < n && !(rel & mask))
    mask <<= 1;
  return mask;
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

/* Binomial tree on the members relative to the root: in round k (mask = 2^k) every member below mask that has the
 * data sends it to the member mask further on. A member receives once, from its relative index minus its lowest set
 * bit, then sends to relative + mask for the masks below that bit, largest first (as MPICH does). When scattering,
 * each message carries only the pieces of the receiver's subtree. */
static void binomial_tree(const sim_coll_plan_t *plan, int me, int scatter, const out_t *out)
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
    binomial_tree(plan, me, 0, &out);
    return 0;
  case SIM_BCAST_SCATTER_RING:
    binomial_tree(plan, me, 1, &out);
    ring_allgather(plan, me, &out);
    return 0;
  case SIM_BCAST_MESH:
    return mesh(plan, me, &out);
  default:
    one_to_all(plan, me, &out);
    return 0;
  }
}

/* The calling rank's index in the group. */
static int my_index(const sim_rank_t *rank, const sim_group_t *group)
{
  int me = sim_rank_id(rank);
  if (me < group->count && group->members[me] == me) /* the whole run's group, at every broadcast */
    return me;
  for (int i = 0; i < group->count; i++)
    if (group->members[i] == me)
      return i;
  xbt_die("rank %d takes part in a broadcast of a group it is not in", me);
}

typedef struct exec {
  sim_rank_t *rank;
  const sim_group_t *group;
} exec_t;

static void execute(void *ctx, const sim_coll_op_t *op)
{
  const exec_t *exec = ctx;
  int peer = exec->group->members[op->peer];
  if (op->send)
    sim_send(exec->rank, peer, op->bytes);
  else
    sim_recv(exec->rank, peer, op->bytes);
}

/* The members' mesh coordinates into rows and cols (n each); 0, or -1 when some member's host has none. */
static int group_coords(const sim_rank_t *rank, const sim_group_t *group, int *rows, int *cols)
{
  for (int i = 0; i < group->count; i++)
    if (sim_rank_coords(rank, group->members[i], &rows[i], &cols[i]) != 0)
      return -1;
  return 0;
}

int sim_coll_bcast(sim_rank_t *rank, const sim_group_t *group, sim_bcast_alg_t alg, int root, double bytes)
{
  int me = my_index(rank, group);
  sim_coll_plan_t plan = {.alg = alg, .count = group->count, .root = root, .bytes = bytes};
  int *coords = NULL;
  if (alg == SIM_BCAST_MESH && group->count > 1) {
    coords = malloc(2 * (size_t)group->count * sizeof *coords);
    if (!coords)
      return SIM_ENOMEM;
    if (group_coords(rank, group, coords, coords + group->count) == 0) {
      plan.rows = coords;
      plan.cols = coords + group->count;
    }
  }
  exec_t exec = {.rank = rank, .group = group};
  int rc = sim_coll_plan(&plan, me, execute, &exec);
  free(coords);
  return rc;
}

/* ---- The other collectives (SMPI 3.32, src/smpi/colls/ and smpi_nbc_impl.cpp) ---- */

/* The algorithms' indices in the name lists below (0 is every kind's default). */
enum { BARRIER_BRUCK = 1, BARRIER_TREE = 2 };
enum { REDUCE_FLAT_TREE = 1, REDUCE_BINOMIAL = 2 };
enum { ALLREDUCE_RDB = 2, ALLREDUCE_LR = 3 };
enum { GATHER_BINOMIAL = 1 }; /* and scatter's */
enum { ALLGATHER_RDB = 2 };   /* 1, the ring, is what is not rdb */
enum { ALLTOALL_PAIR = 1, ALLTOALL_RING = 2, ALLTOALL_BRUCK = 3 };

const char *const sim_coll_barrier_names[] = {"default", "ompi_bruck", "ompi_tree", NULL};
const char *const sim_coll_reduce_names[] = {"default", "flat_tree", "binomial", NULL};
const char *const sim_coll_allreduce_names[] = {"default", "redbcast", "rdb", "lr", NULL};
const char *const sim_coll_gather_names[] = {"default", "ompi_binomial", NULL};
const char *const sim_coll_allgather_names[] = {"default", "ring", "rdb", NULL};
const char *const sim_coll_scatter_names[] = {"default", "ompi_binomial", NULL};
const char *const sim_coll_alltoall_names[] = {"default", "pair", "ring", "bruck", NULL};
static const char *const only_default[] = {"default", NULL};

const char *const *const sim_coll_alg_names[SIM_COLL_KINDS] = {sim_coll_barrier_names, sim_bcast_names,
                                                               sim_coll_reduce_names,  sim_coll_allreduce_names,
                                                               sim_coll_gather_names,  sim_coll_allgather_names,
                                                               sim_coll_scatter_names, sim_coll_alltoall_names,
                                                               only_default,           only_default};
const char *const sim_coll_kind_names[SIM_COLL_KINDS] = {"barrier",   "bcast",   "reduce",   "allreduce",      "gather",
                                                         "allgather", "scatter", "alltoall", "reduce_scatter", "scan"};

int sim_coll_alg_parse(sim_coll_kind_t kind, const char *name)
{
  for (int alg = 0; sim_coll_alg_names[kind][alg]; alg++)
    if (strcmp(name, sim_coll_alg_names[kind][alg]) == 0)
      return alg;
  return -1;
}

/* Member i's piece of a gather, scatter or allgather: `bytes` each, or counts[i], laid out in member order. */
static double block_len(const sim_coll_call_t *c, int i)
{
  return c->counts ? c->counts[i] : c->bytes;
}

static double block_off(const sim_coll_call_t *c, int i)
{
  if (!c->counts)
    return c->bytes * i;
  double off = 0;
  for (int j = 0; j < i; j++)
    off += c->counts[j];
  return off;
}

static void post_block(const sim_coll_call_t *c, const out_t *out, int send, int peer, int block)
{
  double off = block_off(c, block);
  post(out, send, peer, off, off + block_len(c, block), 0);
}

static int is_power_of_two(int n)
{
  return (n & (n - 1)) == 0;
}

/* SMPI's non-blocking linear collectives (igather, iscatter, ireduce): every member but the root posts its message to
 * the root, the root posts one per member; all wait. */
static void linear_to_root(const sim_coll_call_t *c, int n, int me, int to_root, int combine, const out_t *out)
{
  if (me != c->root) {
    if (combine)
      post(out, to_root, c->root, 0, c->bytes, 0);
    else
      post_block(c, out, to_root, c->root, me);
  }
  for (int i = 0; me == c->root && i < n; i++)
    if (i != me) {
      if (combine)
        post(out, !to_root, i, 0, c->bytes, 1);
      else
        post_block(c, out, !to_root, i, i);
    }
  wait_all(out);
}

/* Binomial reduce or gather towards the root, relative ranks as in the binomial broadcast: a member receives from its
 * children rel + 1, rel + 2, rel + 4, ... below its lowest set bit, then sends to rel minus that bit. A reduction
 * moves the whole data each time, a gather the pieces of the sender's subtree (in the order relative to the root). */
static void binomial_up(const sim_coll_call_t *c, int n, int me, int gather, const out_t *out)
{
  int rel = (me - c->root + n) % n;
  int low = low_bit(rel, n);
  for (int mask = 1; mask < low && rel + mask < n; mask <<= 1) {
    int peer = (rel + mask + c->root) % n;
    int end = rel + 2 * mask < n ? rel + 2 * mask : n;
    sim_coll_op_t op = {.peer = peer,
                        .offset = gather ? c->bytes * (rel + mask) : 0,
                        .bytes = gather ? c->bytes * (end - rel - mask) : c->bytes,
                        .combine = !gather};
    out->emit(out->ctx, &op);
  }
  if (rel != 0) {
    int end = rel + low < n ? rel + low : n;
    put(out, 1, (rel - low + c->root) % n, gather ? c->bytes * rel : 0, gather ? c->bytes * end : c->bytes);
  }
}

/* The binomial broadcast (or scatter) of the broadcasts above, of `bytes` from `root`. */
static void binomial_down(int n, int root, double bytes, int scatter, int me, const out_t *out)
{
  sim_coll_plan_t plan = {.alg = SIM_BCAST_BINOMIAL, .count = n, .root = root, .bytes = bytes};
  binomial_tree(&plan, me, scatter, out);
}

/* Exchanges with `peer` (posted both ways, then waited for): SMPI's sendrecv. */
static void exchange(const out_t *out, int peer, double send_from, double send_to, double recv_from, double recv_to,
                     int combine)
{
  post(out, 1, peer, send_from, send_to, 0);
  post(out, 0, peer, recv_from, recv_to, combine);
  wait_all(out);
}

/* Ring allgather of the members' pieces: at step j member me passes piece me - j + 1 right and gets me - j from the
 * left. */
static void ring_allgather_pieces(const sim_coll_call_t *c, int n, int me, const out_t *out)
{
  for (int j = 1; j < n; j++) {
    int q_out = (me - j + 1 + n) % n;
    int q_in = (me - j + n) % n;
    double oo = block_off(c, q_out);
    double oi = block_off(c, q_in);
    post(out, 1, (me + 1) % n, oo, oo + block_len(c, q_out), 0);
    post(out, 0, (me - 1 + n) % n, oi, oi + block_len(c, q_in), 0);
    wait_all(out);
  }
}

static void allgather(const sim_coll_call_t *c, int n, int me, const out_t *out)
{
  if (c->alg == ALLGATHER_RDB && is_power_of_two(n) &&
      !c->counts) { /* recursive doubling: the held range doubles each step */
    for (int mask = 1; mask < n; mask <<= 1) {
      int peer = me ^ mask;
      int mine = me & ~(mask - 1);
      int theirs = peer & ~(mask - 1);
      exchange(out, peer, c->bytes * mine, c->bytes * (mine + mask), c->bytes * theirs, c->bytes * (theirs + mask), 0);
    }
    return;
  }
  if (c->alg != 0) { /* the ring, also for rdb when n is not a power of two */
    ring_allgather_pieces(c, n, me, out);
    return;
  }
  for (int i = 0; i < n; i++) /* SMPI's iallgather: every member posts its piece to every other one */
    if (i != me) {
      post_block(c, out, 1, i, me);
      post_block(c, out, 0, i, i);
    }
  wait_all(out);
}

/* MPICH's recursive doubling allreduce: with n not a power of two, the first 2 * rem members pair up and the even
 * ones hand their data to the odd ones and sit out. */
static void allreduce_rdb(double bytes, int n, int me, const out_t *out)
{
  int pof2 = 1;
  while (pof2 * 2 <= n)
    pof2 *= 2;
  int rem = n - pof2;
  int newrank = me >= 2 * rem ? me - rem : me % 2 ? me / 2 : -1;
  if (me < 2 * rem) {
    sim_coll_op_t op = {.send = me % 2 == 0, .peer = me % 2 ? me - 1 : me + 1, .bytes = bytes, .combine = me % 2};
    out->emit(out->ctx, &op);
  }
  for (int mask = 1; newrank >= 0 && mask < pof2; mask <<= 1) {
    int newdst = newrank ^ mask;
    int dst = newdst < rem ? newdst * 2 + 1 : newdst + rem;
    exchange(out, dst, 0, bytes, 0, bytes, 1);
  }
  if (me < 2 * rem)
    put(out, me % 2, me % 2 ? me - 1 : me + 1, 0, bytes);
}

/* Ring allreduce (SMPI's lr): a ring reduce-scatter of n pieces, then a ring allgather of the reduced pieces. */
static void allreduce_ring(double bytes, int n, int me, const out_t *out)
{
  for (int j = 0; j < n - 1; j++) {
    int q_out = (me - j + n) % n;
    int q_in = (me - j - 1 + n) % n;
    post(out, 1, (me + 1) % n, cut(bytes, n, q_out), cut(bytes, n, q_out + 1), 0);
    post(out, 0, (me - 1 + n) % n, cut(bytes, n, q_in), cut(bytes, n, q_in + 1), 1);
    wait_all(out);
  }
  for (int j = 0; j < n - 1; j++) {
    int q_out = (me + 1 - j + n) % n;
    int q_in = (me - j + n) % n;
    post(out, 1, (me + 1) % n, cut(bytes, n, q_out), cut(bytes, n, q_out + 1), 0);
    post(out, 0, (me - 1 + n) % n, cut(bytes, n, q_in), cut(bytes, n, q_in + 1), 0);
    wait_all(out);
  }
}

/* Block (src, dst) of an alltoall lies at (src * n + dst) * bytes; with per-member counts, offsets are not tracked. */
static void alltoall_pair_ops(const sim_coll_call_t *c, int n, int me, int peer_to, int peer_from, const out_t *out)
{
  double to = c->counts ? c->counts[peer_to] : c->bytes;
  double from = c->counts2 ? c->counts2[peer_from] : c->bytes;
  double off_to = c->counts ? 0 : c->bytes * ((double)me * n + peer_to);
  double off_from = c->counts ? 0 : c->bytes * ((double)peer_from * n + me);
  post(out, 1, peer_to, off_to, off_to + to, 0);
  post(out, 0, peer_from, off_from, off_from + from, 0);
}

/* One piece of a Bruck round: the block in slot j of member `at` (which owns the round's message), whose slots below
 * bit `pof2` have been passed on already: it came from member at - (j mod pof2) and goes to that member + j. */
static void bruck_piece(const sim_coll_call_t *c, int n, int at, int j, int pof2, int send, int peer, int more,
                        const out_t *out)
{
  int src = ((at - (j & (pof2 - 1))) % n + n) % n;
  double off = c->bytes * ((double)src * n + (src + j) % n);
  sim_coll_op_t op = {.send = send, .peer = peer, .offset = off, .bytes = c->bytes, .post = 1, .more = more};
  out->emit(out->ctx, &op);
}

/* The last slot with bit pof2 among 1..n-1: the one whose piece ends the round's message. */
static int bruck_last(int n, int pof2)
{
  int last = 0;
  for (int j = 1; j < n; j++)
    if (j & pof2)
      last = j;
  return last;
}

/* Bruck's alltoall (SMPI's alltoall__bruck): member me's slot j starts with its block for me + j; in the round of each
 * power of two pof2 < n it sends the blocks of the slots with bit pof2 to me + pof2 as one packed message and receives
 * the same slots from me - pof2 (a sendrecv). After the last round slot j holds the block from me - j. SMPI's local
 * rotations before and after (sendrecvs of a member with itself) are memory copies here. */
static void alltoall_bruck(const sim_coll_call_t *c, int n, int me, const out_t *out)
{
  for (int pof2 = 1; pof2 < n; pof2 <<= 1) {
    int to = (me + pof2) % n;
    int from = (me - pof2 + n) % n;
    int last = bruck_last(n, pof2);
    for (int j = 1; j < n; j++)
      if (j & pof2)
        bruck_piece(c, n, me, j, pof2, 1, to, j != last, out);
    for (int j = 1; j < n; j++)
      if (j & pof2)
        bruck_piece(c, n, from, j, pof2, 0, from, j != last, out);
    wait_all(out);
  }
}

/* Whether SMPI 3.32's default alltoall (alltoall__default is alltoall__ompi, smpi_openmpi_selector.cpp) runs Bruck's
 * ("modified_bruck", its algorithm 3) for n members sending `bytes` to each: small blocks from 16 members on. Its other
 * choices are the linear ones but for its pairwise exchange of large blocks (not followed: the linear one runs). */
static int ompi_uses_bruck(int n, double bytes)
{
  static const struct {
    int below;       /* members */
    double min, max; /* block bytes in [min, max) */
  } bruck[] = {{16, 0, 0},     {32, 4, 512},   {64, 0, 512},   {128, 0, 1024},  {256, 0, 1024},
               {512, 0, 1024}, {1024, 0, 512}, {2048, 0, 512}, {4096, 0, 1024}, {INT_MAX, 0, 2048}};
  for (size_t i = 0; i < sizeof bruck / sizeof bruck[0]; i++)
    if (n < bruck[i].below)
      return bytes >= bruck[i].min && bytes < bruck[i].max;
  return 0;
}

/* SMPI's linear alltoall (every message posted at once), or the pairwise exchange: at step k with member me XOR k
 * (pair, for a power of two) or to me + k and from me - k (ring), or Bruck's. */
static void alltoall(const sim_coll_call_t *c, int n, int me, const out_t *out)
{
  if (!c->counts && (c->alg == ALLTOALL_BRUCK || (c->alg == 0 && ompi_uses_bruck(n, c->bytes)))) {
    alltoall_bruck(c, n, me, out);
    return;
  }
  if (c->alg == 0 || c->counts) {
    for (int i = 0; i < n; i++)
      if (i != me)
        alltoall_pair_ops(c, n, me, i, i, out);
    wait_all(out);
    return;
  }
  for (int k = 1; k < n; k++) {
    if (c->alg == ALLTOALL_PAIR && is_power_of_two(n))
      alltoall_pair_ops(c, n, me, me ^ k, me ^ k, out);
    else
      alltoall_pair_ops(c, n, me, (me + k) % n, (me - k + n) % n, out);
    wait_all(out);
  }
}

static void barrier(const sim_coll_call_t *c, int n, int me, const out_t *out)
{
  if (c->alg == BARRIER_BRUCK) { /* dissemination (ompi_bruck): round k with the members 2^k away */
    for (int dist = 1; dist < n; dist <<= 1) {
      post(out, 1, (me + dist) % n, 0, 0, 0);
      post(out, 0, (me - dist + n) % n, 0, 0, 0);
      wait_all(out);
    }
    return;
  }
  if (c->alg == BARRIER_TREE) { /* a binomial gather of empty messages to member 0, then the binomial broadcast */
    sim_coll_call_t up = {.kind = SIM_COLL_REDUCE, .root = 0};
    binomial_up(&up, n, me, 0, out);
    binomial_down(n, 0, 0, 0, me, out);
    return;
  }
  if (me != 0) { /* ompi_basic_linear */
    put(out, 1, 0, 0, 0);
    put(out, 0, 0, 0, 0);
    return;
  }
  for (int i = 1; i < n; i++)
    post(out, 0, i, 0, 0, 0);
  wait_all(out);
  for (int i = 1; i < n; i++)
    post(out, 1, i, 0, 0, 0);
  wait_all(out);
}

static void reduce(const sim_coll_call_t *c, int n, int me, const out_t *out)
{
  if (c->alg == REDUCE_BINOMIAL) {
    binomial_up(c, n, me, 0, out);
  } else if (c->alg == REDUCE_FLAT_TREE) { /* flat tree: the root receives from every member in turn */
    if (me != c->root)
      put(out, 1, c->root, 0, c->bytes);
    for (int i = 0; me == c->root && i < n; i++)
      if (i != me) {
        sim_coll_op_t op = {.peer = i, .bytes = c->bytes, .combine = 1};
        out->emit(out->ctx, &op);
      }
  } else {
    linear_to_root(c, n, me, 1, 1, out);
  }
}

/* SMPI's default reduce-scatter for equal counts: a reduce of the whole to member 0, then its linear scatter. */
static void reduce_scatter(const sim_coll_call_t *c, int n, int me, const out_t *out)
{
  double total = block_off(c, n);
  sim_coll_call_t whole = {.kind = SIM_COLL_REDUCE, .bytes = total};
  linear_to_root(&whole, n, me, 1, 1, out);
  sim_coll_call_t pieces = {.kind = SIM_COLL_SCATTER, .counts = c->counts, .bytes = c->bytes};
  linear_to_root(&pieces, n, me, 0, 0, out);
}

/* SMPI's linear scan: every member posts its data to every later member and receives from every earlier one. */
static void scan(const sim_coll_call_t *c, int n, int me, const out_t *out)
{
  for (int i = 0; i < me; i++)
    post(out, 0, i, 0, c->bytes, 1);
  for (int i = me + 1; i < n; i++)
    post(out, 1, i, 0, c->bytes, 0);
  wait_all(out);
}

int sim_coll_plan_call(const sim_coll_call_t *call, int count, int me, sim_coll_emit_fn emit, void *ctx)
{
  out_t out = {.emit = emit, .ctx = ctx};
  if (count < 2)
    return 0;
  switch (call->kind) {
  case SIM_COLL_BCAST: {
    sim_coll_plan_t plan = {.alg = call->alg, .count = count, .root = call->root, .bytes = call->bytes};
    return sim_coll_plan(&plan, me, emit, ctx);
  }
  case SIM_COLL_BARRIER:
    barrier(call, count, me, &out);
    break;
  case SIM_COLL_REDUCE:
    reduce(call, count, me, &out);
    break;
  case SIM_COLL_ALLREDUCE:
    if (call->alg == ALLREDUCE_RDB)
      allreduce_rdb(call->bytes, count, me, &out);
    else if (call->alg == ALLREDUCE_LR)
      allreduce_ring(call->bytes, count, me, &out);
    else { /* SMPI's default (redbcast): its default reduce to member 0, then its default broadcast */
      sim_coll_call_t to_zero = {.kind = SIM_COLL_REDUCE, .bytes = call->bytes};
      linear_to_root(&to_zero, count, me, 1, 1, &out);
      binomial_down(count, 0, call->bytes, 0, me, &out);
    }
    break;
  case SIM_COLL_GATHER:
    if (call->alg == GATHER_BINOMIAL && !call->counts)
      binomial_up(call, count, me, 1, &out);
    else
      linear_to_root(call, count, me, 1, 0, &out);
    break;
  case SIM_COLL_SCATTER:
    if (call->alg == GATHER_BINOMIAL && !call->counts)
      binomial_down(count, call->root, call->bytes * count, 1, me, &out);
    else
      linear_to_root(call, count, me, 0, 0, &out);
    break;
  case SIM_COLL_ALLGATHER:
    allgather(call, count, me, &out);
    break;
  case SIM_COLL_ALLTOALL:
    alltoall(call, count, me, &out);
    break;
  case SIM_COLL_REDUCE_SCATTER:
    reduce_scatter(call, count, me, &out);
    break;
  default:
    scan(call, count, me, &out);
    break;
  }
  return 0;
}

/* Carries out a plan's operations: blocking ones at once, posted ones as requests until the next wait. */
typedef struct run_ctx {
  sim_rank_t *rank;
  const sim_group_t *group;
  sim_request_t **pending;
  size_t npending;
  size_t cap;
  double packed; /* the bytes of the pieces of the message under way (sim_coll_op_t.more) */
  int failed;
} run_ctx_t;

static void run_op(void *ctx, const sim_coll_op_t *op)
{
  run_ctx_t *run = ctx;
  if (op->peer == SIM_COLL_WAITALL) {
    for (size_t i = 0; i < run->npending; i++)
      sim_wait(run->rank, run->pending[i]);
    run->npending = 0;
    return;
  }
  run->packed += op->bytes;
  if (op->more)
    return;
  double bytes = run->packed;
  run->packed = 0;
  int peer = run->group->members[op->peer];
  if (!op->post) {
    (op->send ? sim_send : sim_recv)(run->rank, peer, bytes);
    return;
  }
  if (run->npending == run->cap) {
    size_t cap = run->cap ? 2 * run->cap : 16;
    sim_request_t **more = realloc(run->pending, cap * sizeof *more);
    if (!more) {
      run->failed = 1;
      return;
    }
    run->pending = more;
    run->cap = cap;
  }
  sim_request_t *req = (op->send ? sim_isend : sim_irecv)(run->rank, peer, bytes);
  if (req)
    run->pending[run->npending++] = req;
}

int sim_coll_run(sim_rank_t *rank, const sim_group_t *group, const sim_coll_call_t *call)
{
  sim_mark_t mark = sim_mark_enter(rank, group, sim_mark_kind(call->kind), call->root);
  if (call->kind == SIM_COLL_BCAST)
    return sim_mark_leave(&mark, sim_coll_bcast(rank, group, (sim_bcast_alg_t)call->alg, call->root, call->bytes));
  run_ctx_t run = {.rank = rank, .group = group};
  int rc = sim_coll_plan_call(call, group->count, my_index(rank, group), run_op, &run);
  run_op(&run, &(sim_coll_op_t){.peer = SIM_COLL_WAITALL});
  free(run.pending);
  return sim_mark_leave(&mark, rc != 0 ? rc : run.failed ? SIM_ENOMEM : 0);
}

void sim_bcast(sim_rank_t *rank, int root, double bytes)
{
  sim_bcast_group(rank, sim_rank_world(rank), root, bytes);
}

void sim_bcast_group(sim_rank_t *rank, const sim_group_t *group, int root, double bytes)
{
  sim_mark_t mark = sim_mark_enter(rank, group, MET_COLL_ONE_TO_N, root);
  if (sim_mark_leave(&mark, sim_coll_bcast(rank, group, sim_rank_bcast_alg(rank), root, bytes)) != 0)
    sim_rank_fail(rank, SIM_ENOMEM, "a broadcast could not allocate its plan (out of memory)");
}

void sim_barrier(sim_rank_t *rank)
{
  int nranks = sim_rank_count(rank);
  sim_mark_t mark = sim_mark_enter(rank, sim_rank_world(rank), MET_COLL_BARRIER, -1);
  if (sim_rank_id(rank) != 0) {
    sim_send(rank, 0, 0);
    sim_recv(rank, 0, 0);
    sim_mark_leave(&mark, 0);
    return;
  }
  for (int src = 1; src < nranks; src++)
    sim_recv(rank, src, 0);
  for (int dst = 1; dst < nranks; dst++)
    sim_send(rank, dst, 0);
  sim_mark_leave(&mark, 0);
}
