/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Open MPI 4.1's choice of collective algorithms (sim_coll_ompi.h): the switch points of its tuned component's fixed
 * decision functions (ompi/mca/coll/tuned/coll_tuned_decision_fixed.c of Open MPI v4.1.4, the commutative branch:
 * MPI's predefined reductions), each of its algorithms mapped to simrun's nearest (docs/ti-replay.md lists where they
 * differ). */
#include "sim_coll_ompi.h"

#include <float.h>
#include <limits.h>
#include <stddef.h>

/* One switch point: below `members` members and below `bytes` bytes, Open MPI runs its algorithm number `alg`. */
typedef struct band {
  int members;
  double bytes;
  int alg;
} band_t;

#define ANY DBL_MAX
#define ALL INT_MAX

/* Open MPI's "total_dsize" of each kind: one member's buffer (allreduce, bcast, reduce), one block (alltoall, gather,
 * scatter, allgather), a member's mean block (allgatherv), the whole result (reduce_scatter). Rows in the order of its
 * if-else chains: the first that holds decides. */
static const band_t allreduce_bands[] = {
    {4, 8, 4},       {4, 4096, 3},     {4, 8192, 4},     {4, 16384, 3},   {4, 65536, 4},   {4, 262144, 5},
    {4, ANY, 6},     {8, 16, 4},       {8, 8192, 3},     {8, ANY, 6},     {16, 8192, 3},   {16, ANY, 6},
    {32, 64, 5},     {32, 4096, 3},    {32, ANY, 6},     {64, 128, 5},    {64, ANY, 6},    {128, 262144, 3},
    {128, ANY, 6},   {256, 131072, 2}, {256, 262144, 3}, {256, ANY, 6},   {512, 4096, 2},  {512, ANY, 6},
    {2048, 2048, 2}, {2048, 16384, 3}, {2048, ANY, 6},   {4096, 2048, 2}, {4096, 4096, 5}, {4096, 16384, 3},
    {4096, ANY, 6},  {ALL, 2048, 2},   {ALL, 16384, 5},  {ALL, 32768, 3}, {ALL, ANY, 6}};
static const band_t bcast_bands[] = {
    {4, 32, 3},        {4, 256, 5},     {4, 512, 3},       {4, 1024, 7},     {4, 32768, 1},    {4, 131072, 5},
    {4, 262144, 2},    {4, 524288, 1},  {4, 1048576, 6},   {4, ANY, 5},      {8, 64, 5},       {8, 128, 6},
    {8, 2048, 5},      {8, 8192, 6},    {8, 1048576, 1},   {8, ANY, 2},      {16, 8, 7},       {16, 64, 5},
    {16, 4096, 7},     {16, 16384, 5},  {16, 32768, 6},    {16, ANY, 1},     {32, 4096, 7},    {32, 1048576, 6},
    {32, ANY, 8},      {64, 2048, 6},   {64, ANY, 7},      {128, ANY, 7},    {256, 2, 6},      {256, 16384, 5},
    {256, 32768, 1},   {256, 65536, 5}, {256, ANY, 7},     {1024, 16384, 7}, {1024, 32768, 4}, {1024, ANY, 7},
    {2048, 524288, 7}, {2048, ANY, 8},  {4096, 262144, 7}, {4096, ANY, 8},   {ALL, 8192, 7},   {ALL, 16384, 5},
    {ALL, 262144, 7},  {ALL, ANY, 8}};
static const band_t reduce_bands[] = {
    {4, 8, 7},      {4, 16, 4},     {4, 32, 3},      {4, 262144, 1},  {4, 524288, 3},   {4, 1048576, 2}, {4, ANY, 3},
    {8, 4096, 4},   {8, 65536, 2},  {8, 262144, 5},  {8, 524288, 1},  {8, 1048576, 5},  {8, ANY, 1},     {16, 8192, 4},
    {16, ANY, 5},   {32, 4096, 4},  {32, ANY, 5},    {256, ANY, 5},   {512, 8192, 5},   {512, 16384, 6}, {512, ANY, 5},
    {2048, ANY, 5}, {4096, 512, 5}, {4096, 1024, 6}, {4096, 8192, 5}, {4096, 16384, 6}, {4096, ANY, 5},  {ALL, 16, 5},
    {ALL, 32, 6},   {ALL, 1024, 5}, {ALL, 2048, 6},  {ALL, 8192, 5},  {ALL, 16384, 6},  {ALL, ANY, 5}};
static const band_t barrier_bands[] = {{4, ANY, 3},   {8, ANY, 1},    {64, ANY, 3},   {256, ANY, 4},
                                       {512, ANY, 6}, {1024, ANY, 4}, {4096, ANY, 6}, {ALL, ANY, 4}};
static const band_t alltoall_bands[] = {
    {3, 2, 2},       {3, 4, 5},        {3, 16, 2},        {3, 64, 5},        {3, 256, 2},     {3, 4096, 5},
    {3, 32768, 2},   {3, 262144, 4},   {3, 1048576, 5},   {3, ANY, 2},       {8, 8192, 4},    {8, 16384, 1},
    {8, 65536, 4},   {8, 524288, 1},   {8, 1048576, 2},   {8, ANY, 1},       {16, 262144, 4}, {16, ANY, 1},
    {32, 4, 4},      {32, 512, 3},     {32, 8192, 4},     {32, 32768, 1},    {32, 262144, 4}, {32, 524288, 1},
    {32, ANY, 4},    {64, 512, 3},     {64, 524288, 1},   {64, ANY, 4},      {128, 1024, 3},  {128, 2048, 1},
    {128, 4096, 4},  {128, 262144, 1}, {128, ANY, 2},     {256, 1024, 3},    {256, 2048, 4},  {256, 262144, 1},
    {256, ANY, 2},   {512, 1024, 3},   {512, 8192, 4},    {512, 32768, 1},   {512, ANY, 2},   {1024, 512, 3},
    {1024, 8192, 4}, {1024, 16384, 1}, {1024, 131072, 4}, {1024, 262144, 1}, {1024, ANY, 2},  {2048, 512, 3},
    {2048, 1024, 4}, {2048, 2048, 1},  {2048, 16384, 4},  {2048, 262144, 1}, {2048, ANY, 4},  {4096, 1024, 3},
    {4096, 4096, 4}, {4096, 8192, 1},  {4096, 131072, 4}, {4096, ANY, 1},    {ALL, 2048, 3},  {ALL, 8192, 4},
    {ALL, 16384, 1}, {ALL, 32768, 4},  {ALL, 65536, 1},   {ALL, ANY, 4}};
static const band_t alltoallv_bands[] = {{4, ANY, 2},   {64, ANY, 1},   {128, ANY, 2},
                                         {256, ANY, 1}, {1024, ANY, 2}, {ALL, ANY, 1}};
static const band_t allgather_bands[] = {
    {3, ANY, 6},       {32, ANY, 3},   {64, 1024, 3}, {64, 65536, 5},   {64, ANY, 4},     {128, 512, 3},
    {128, 65536, 5},   {128, ANY, 4},  {256, 512, 3}, {256, 131072, 5}, {256, 524288, 4}, {256, 1048576, 5},
    {256, ANY, 4},     {512, 32, 3},   {512, 128, 2}, {512, 1024, 3},   {512, 131072, 5}, {512, 524288, 4},
    {512, 1048576, 5}, {512, ANY, 4},  {1024, 64, 3}, {1024, 256, 2},   {1024, 2048, 3},  {1024, ANY, 5},
    {2048, 4, 3},      {2048, 8, 2},   {2048, 16, 3}, {2048, 32, 2},    {2048, 256, 3},   {2048, 512, 2},
    {2048, 4096, 3},   {2048, ANY, 5}, {4096, 32, 2}, {4096, 128, 3},   {4096, 512, 2},   {4096, 4096, 3},
    {4096, ANY, 5},    {ALL, 2, 3},    {ALL, 8, 2},   {ALL, 16, 3},     {ALL, 512, 2},    {ALL, 4096, 3},
    {ALL, ANY, 5}};
static const band_t allgatherv_bands[] = {
    {3, 2048, 3},    {3, 4096, 5},       {3, 8192, 3},   {3, ANY, 5},    {8, 256, 1},   {8, 4096, 4},   {8, 8192, 3},
    {8, 16384, 4},   {8, 262144, 2},     {8, ANY, 4},    {16, 1024, 1},  {16, ANY, 2},  {32, 128, 1},   {32, 262144, 2},
    {32, ANY, 3},    {64, 256, 1},       {64, 8192, 2},  {64, ANY, 3},   {128, 256, 1}, {128, 4096, 2}, {128, ANY, 3},
    {256, 1024, 2},  {256, 65536, 4},    {256, ANY, 3},  {512, 1024, 2}, {512, ANY, 3}, {1024, 512, 2}, {1024, 1024, 1},
    {1024, 4096, 2}, {1024, 1048576, 4}, {1024, ANY, 3}, {ALL, 4096, 2}, {ALL, ANY, 4}};
static const band_t gather_bands[] = {{4, 2, 3},      {4, 4, 1},      {4, 32768, 2}, {4, 65536, 1},
                                      {4, 131072, 2}, {4, ANY, 3},    {8, 1024, 2},  {8, 8192, 1},
                                      {8, 32768, 2},  {8, 262144, 1}, {8, ANY, 3},   {256, ANY, 2},
                                      {512, 2048, 2}, {512, 8192, 1}, {512, ANY, 2}, {ALL, ANY, 2}};
static const band_t scatter_bands[] = {
    {4, 2, 3},      {4, 131072, 1}, {4, 262144, 3},  {4, ANY, 1},  {8, 2048, 2},   {8, 4096, 1},
    {8, 8192, 2},   {8, 32768, 1},  {8, 1048576, 3}, {8, ANY, 1},  {16, 16384, 2}, {16, 1048576, 3},
    {16, ANY, 1},   {32, 16384, 2}, {32, 32768, 1},  {32, ANY, 3}, {64, 512, 2},   {64, 8192, 3},
    {64, 16384, 2}, {64, ANY, 3},   {ALL, 512, 2},   {ALL, ANY, 3}};
static const band_t reduce_scatter_bands[] = {
    {4, 65536, 3},    {4, 131072, 4},   {4, ANY, 3},      {8, 8, 1},      {8, 262144, 2},  {8, ANY, 3},
    {32, 262144, 2},  {32, ANY, 3},     {64, 64, 1},      {64, 2048, 2},  {64, 524288, 4}, {64, ANY, 3},
    {128, 256, 1},    {128, 512, 2},    {128, 2048, 4},   {128, 4096, 2}, {128, ANY, 4},   {256, 256, 1},
    {256, 512, 2},    {256, ANY, 4},    {512, 256, 1},    {512, 1024, 2}, {512, ANY, 4},   {1024, 512, 1},
    {1024, 2048, 2},  {1024, 8192, 4},  {1024, 16384, 2}, {1024, ANY, 4}, {2048, 512, 1},  {2048, 4096, 2},
    {2048, 16384, 4}, {2048, 32768, 2}, {2048, ANY, 4},   {4096, 512, 1}, {4096, 4096, 2}, {4096, ANY, 4},
    {ALL, 1024, 1},   {ALL, 8192, 2},   {ALL, ANY, 4}};

/* simrun's algorithm for each of Open MPI's numbers (index 0 unused), by the names of sim_coll_alg_names. */
static const char *const allreduce_as[] = {NULL, "redbcast", "redbcast", "rdb", "lr", "lr", "lr"};
/* basic linear; chain, pipeline, split binary, binary, binomial, k-nomial trees; scatter + allgather (two kinds) */
static const char *const bcast_as[] = {NULL,       "one-to-all", "binomial", "binomial",          "binomial",
                                       "binomial", "binomial",   "binomial", "scatter-allgather", "scatter-allgather"};
/* linear; chain and pipeline (one line of members); binary, binomial, in-order binary trees; Rabenseifner's */
static const char *const reduce_as[] = {NULL,       "flat_tree", "flat_tree", "flat_tree",
                                        "binomial", "binomial",  "binomial",  "binomial"};
/* linear; double ring; recursive doubling, Bruck's, two members (all dissemination-like); tree */
static const char *const barrier_as[] = {NULL,         "default",    "default",  "ompi_bruck",
                                         "ompi_bruck", "ompi_bruck", "ompi_tree"};
/* linear; pairwise (to me + k, from me - k: simrun's ring); modified Bruck; linear with a bound; two members */
static const char *const alltoall_as[] = {NULL, "basic_linear", "ring", "bruck", "basic_linear", "ring"};
/* linear; Bruck's, recursive doubling (log2 p rounds); ring, neighbour exchange; two members */
static const char *const allgather_as[] = {NULL, "default", "rdb", "rdb", "ring", "ring", "rdb"};
/* allgatherv: default (gatherv + bcast: taken as linear); Bruck's; ring; neighbour exchange; two members */
static const char *const allgatherv_as[] = {NULL, "default", "rdb", "ring", "ring", "rdb"};
/* linear, binomial, linear with synchronisation (scatter: with non-blocking sends) */
static const char *const rooted_as[] = {NULL, "default", "ompi_binomial", "default"};
/* reduce + scatterv; recursive halving, ring, butterfly (p - 1 or log2 p steps of pieces: mpich_pair) */
static const char *const reduce_scatter_as[] = {NULL, "default", "mpich_pair", "mpich_pair", "mpich_pair"};

/* The algorithm of the first band that holds; every table ends with {ALL, ANY}, which holds whatever the size (not a
 * number included). */
static int decided(const band_t *bands, int members, double bytes)
{
  for (;; bands++)
    if ((members < bands->members && bytes < bands->bytes) || (bands->members == ALL && bands->bytes == ANY))
      return bands->alg;
}

static double sum(const double *counts, int members)
{
  double total = 0;
  for (int i = 0; i < members; i++)
    total += counts[i];
  return total;
}

/* Open MPI's algorithm number for `call`, and the names of simrun's for each number into *as. */
static int ompi_number(const sim_coll_call_t *call, int members, const char *const **as)
{
  double bytes = call->bytes;
  switch (call->kind) {
  case SIM_COLL_BARRIER:
    *as = barrier_as;
    return decided(barrier_bands, members, 0);
  case SIM_COLL_BCAST:
    *as = bcast_as;
    return decided(bcast_bands, members, bytes);
  case SIM_COLL_REDUCE:
    *as = reduce_as;
    return decided(reduce_bands, members, bytes);
  case SIM_COLL_ALLREDUCE:
    *as = allreduce_as;
    return decided(allreduce_bands, members, bytes);
  case SIM_COLL_GATHER:
  case SIM_COLL_SCATTER: /* gatherv and scatterv are not tuned: Open MPI's basic component runs them, linear */
    *as = rooted_as;
    return call->counts ? 1 : decided(call->kind == SIM_COLL_GATHER ? gather_bands : scatter_bands, members, bytes);
  case SIM_COLL_ALLGATHER:
    *as = call->counts ? allgatherv_as : allgather_as;
    return call->counts ? decided(allgatherv_bands, members, sum(call->counts, members) / members)
                        : decided(allgather_bands, members, bytes);
  case SIM_COLL_ALLTOALL:
    *as = alltoall_as;
    return decided(call->counts ? alltoallv_bands : alltoall_bands, members, call->counts ? 0 : bytes);
  case SIM_COLL_REDUCE_SCATTER:
    *as = reduce_scatter_as;
    return decided(reduce_scatter_bands, members, call->counts ? sum(call->counts, members) : bytes * members);
  default: /* scans: Open MPI's basic component, linear as SMPI's */
    *as = NULL;
    return 0;
  }
}

/* Open MPI's ring, segmented ring and Rabenseifner's allreduce run its recursive doubling when the reduction has
 * fewer elements than the communicator has members (coll_base_allreduce.c); the elements are taken as 8 bytes. */
static int falls_back_to_rdb(const sim_coll_call_t *call, int members, const char *name)
{
  return call->kind == SIM_COLL_ALLREDUCE && name[0] == 'l' && call->bytes < 8.0 * members;
}

int sim_coll_ompi_alg(const sim_coll_call_t *call, int members)
{
  const char *const *as = NULL;
  int number = ompi_number(call, members, &as);
  if (!as)
    return 0;
  const char *name = falls_back_to_rdb(call, members, as[number]) ? "rdb" : as[number];
  return call->kind == SIM_COLL_BCAST ? sim_bcast_parse(name) : sim_coll_alg_parse(call->kind, name);
}
