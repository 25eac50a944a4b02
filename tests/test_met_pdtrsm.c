/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of pdtrsm's critical-path model (met_pdtrsm) against hand calculations on a machine of round figures: two
 * messages sharing a link, a single row where nothing shares (eq. 6 itself, plus the last block's hops), and a ring
 * whose forwards share the owner's link. */
#include "met_pdtrsm.h"
#include "tu.h"
#include "tu_fast.h"

/* 1 Gflop/s, lambda = 100 us, tau = 10 ns per byte, doubles; eager messages that move when sent. */
static const met_machine_t round_machine = {.link = {.lambda = 1e-4, .tau = 1e-8},
                                            .col_link = {.lambda = 1e-4, .tau = 1e-8},
                                            .flops = 1e9,
                                            .elem_bytes = 8,
                                            .eager_bytes = 65536,
                                            .eager_at_send = 1};

/* Two messages of 10,000 bytes (0.1 ms of bytes each): a from 0, b from 0.05 ms. a's bytes move from 0.1 ms, b's from
 * 0.15 ms; by then a has 5,000 bytes left, and both move at half the rate: a ends at 0.15 + 2 x 0.05 = 0.25 ms, and
 * b's last 5,000 bytes alone end at 0.30 ms (20,000 bytes after 0.1 ms). Apart (b from 0.3 ms): 0.2 and 0.5 ms. A
 * message of no bytes is not sent. */
static void test_met_pdtrsm_shared_pair(void)
{
  double b_end = 0;
  TU_ASSERT_CLOSE(met_shared_pair(&round_machine.link, 0, 10000, 0.05e-3, 10000, &b_end), 0.25e-3, 1e-15);
  TU_ASSERT_CLOSE(b_end, 0.30e-3, 1e-15);
  TU_ASSERT_CLOSE(met_shared_pair(&round_machine.link, 0, 10000, 0.3e-3, 10000, &b_end), 0.2e-3, 1e-15);
  TU_ASSERT_CLOSE(b_end, 0.5e-3, 1e-15);
  TU_ASSERT_CLOSE(met_shared_pair(&round_machine.link, 0, 10000, 0.05e-3, 0, &b_end), 0.2e-3, 1e-15);
  TU_ASSERT_CLOSE(b_end, 0.05e-3, 1e-15);
}

/* N = 256, M = R = 64 on a 1 x 2 grid: no forward and nothing shares a link, so each step is eq. 6's trsm + broadcast
 * + the next owner's update: 4.856448e-3 s (tests/test_met_model.c), eager or synchronous alike. */
static void test_met_pdtrsm_row_of_two_is_eq6(void)
{
  met_dense_t d = {.m = 64, .n = 256, .r = 64, .rows = 1, .cols = 2};
  TU_ASSERT_CLOSE(met_pdtrsm_pipeline(&d, &round_machine), 4.856448e-3, 1e-15);
  TU_ASSERT_CLOSE(met_pdtrsm_pipeline(&d, &round_machine), tu_pdtrsm_time(&d, &round_machine), 1e-15);
  met_machine_t synchronous = round_machine;
  synchronous.eager_bytes = 0;
  TU_ASSERT_CLOSE(met_pdtrsm_pipeline(&d, &synchronous), 4.856448e-3, 1e-15);
}

/* N = 192 (3 blocks), M = R = 64 on a 1 x 3 ring, in us: trsm 262.144, a block 100 + 32768 x 0.01 = 427.68, an update
 * of one block 524.288. Step 0: c0 solves (262.144), c1 has it at 689.824, forwards it to c2 (1117.504) and updates
 * block 1 (1214.112); c2 updates block 2 from 1117.504 (1641.792). Step 1: c1 solves (1476.256), c2 has it at 1903.936
 * (its link is free again), forwards it to c0 (2331.616) and updates block 2 (2428.224). Step 2: c2 solves
 * (2690.368), c0 has it at 3118.048 and forwards it to c1: 3545.728 us. Eq. 6 stops at 3118.048: the last hop is not
 * in it. */
static void test_met_pdtrsm_ring_of_three_by_hand(void)
{
  met_dense_t d = {.m = 64, .n = 192, .r = 64, .rows = 1, .cols = 3};
  TU_ASSERT_CLOSE(met_pdtrsm_pipeline(&d, &round_machine), 3545.728e-6, 1e-12);
  TU_ASSERT_CLOSE(tu_pdtrsm_time(&d, &round_machine), 3118.048e-6, 1e-12);
}

/* The same ring on a processor 10^6 times faster (computation ~0): a step's block leaves its owner while the owner's
 * link still forwards the block before, so the two share it. In us: block 0 reaches c1 at 427.68 and c2 at 855.36;
 * c1's block 1 and its forward of block 0 both move from 527.68 and end at 527.68 + 2 x 327.68 = 1183.04; c2 forwards
 * block 1 to c0 and sends block 2 from 1183.04: both end at 1938.4; c0 forwards block 2 to c1: 2366.08 us, one
 * lambda + 2 R^2 tau a step instead of eq. 4's lambda + R^2 tau. */
static void test_met_pdtrsm_ring_shares_its_links(void)
{
  met_machine_t fast = round_machine;
  fast.flops = 1e15;
  met_dense_t d = {.m = 64, .n = 192, .r = 64, .rows = 1, .cols = 3};
  TU_ASSERT_CLOSE(met_pdtrsm_pipeline(&d, &fast), 2366.08e-6, 1e-9);
}

/* Every ordered pair of 4 ranks with its own two links (out 0..15, in 16..31): nothing two pairs send shares a link. */
static short own_route[4 * 4 * 2];
static unsigned char own_hops[4 * 4];
static met_ports_t own_links(void)
{
  for (int k = 0; k < 16; k++) {
    own_route[2 * k] = (short)k;
    own_route[2 * k + 1] = (short)(16 + k);
    own_hops[k] = 2;
  }
  return (met_ports_t){.count = 4, .stride = 4, .links = 32, .max_hops = 2, .route = own_route, .hops = own_hops};
}

/* The links come from the run's routes when it gives them. The ring of three (computation ~0) still takes 2366.08 us
 * when every pair has its own links: its blocks share the link between the same two processes. On 2 x 2 (N = 256), a
 * process's block along its row and its first part down its column share its one link out when each process has
 * one, and not when every pair has its own: then the time is shorter, and 1 x 2, where nothing shares, is the same. */
static void test_met_pdtrsm_links_from_the_routes(void)
{
  met_machine_t fast = round_machine;
  fast.flops = 1e15;
  fast.ports = own_links();
  met_dense_t ring = {.m = 64, .n = 192, .r = 64, .rows = 1, .cols = 3};
  TU_ASSERT_CLOSE(met_pdtrsm_pipeline(&ring, &fast), 2366.08e-6, 1e-9);
  met_machine_t one_link = fast;
  one_link.ports.count = 0;
  met_dense_t grid = {.m = 64, .n = 256, .r = 64, .rows = 2, .cols = 2};
  CU_ASSERT(met_pdtrsm_pipeline(&grid, &fast) < met_pdtrsm_pipeline(&grid, &one_link) - 1e-6);
  met_machine_t own = round_machine;
  own.ports = own_links();
  met_dense_t row = {.m = 64, .n = 256, .r = 64, .rows = 1, .cols = 2};
  TU_ASSERT_CLOSE(met_pdtrsm_pipeline(&row, &own), 4.856448e-3, 1e-15);
}

/* Every ordered pair of 4 ranks: first the one link all routes share (a bus, link 0), then its own (1..16). */
static short bus_route[4 * 4 * 2];
static unsigned char bus_hops[4 * 4];
static met_ports_t bus_links(void)
{
  for (int k = 0; k < 16; k++) {
    bus_route[2 * k] = 0;
    bus_route[2 * k + 1] = (short)(1 + k);
    bus_hops[k] = 2;
  }
  return (met_ports_t){.count = 4, .stride = 4, .links = 17, .max_hops = 2, .route = bus_route, .hops = bus_hops};
}

/* Three messages of a step on one link: on the bus, a 2 x 2 grid's ring hop (along the solving row) and its two
 * columns' parts (down to the other row) all take link 0. A 2 x 1 grid sends one part and has no ring, a 1 x 4 grid
 * sends no part (its ring's hops follow one another): one stream each. With every pair's own links nothing meets. */
static void test_met_pdtrsm_crowded_link(void)
{
  met_machine_t bus = round_machine;
  bus.ports = bus_links();
  met_dense_t grid = {.m = 64, .n = 256, .r = 64, .rows = 2, .cols = 2};
  met_dense_t column = {.m = 64, .n = 256, .r = 64, .rows = 2, .cols = 1};
  met_dense_t row = {.m = 64, .n = 256, .r = 64, .rows = 1, .cols = 4};
  CU_ASSERT_EQUAL(met_pdtrsm_crowded(&grid, &bus), 1);
  CU_ASSERT_EQUAL(met_pdtrsm_crowded(&column, &bus), 0);
  CU_ASSERT_EQUAL(met_pdtrsm_crowded(&row, &bus), 0);
  met_machine_t own = round_machine;
  own.ports = own_links();
  CU_ASSERT_EQUAL(met_pdtrsm_crowded(&grid, &own), 0);
}

int main(void)
{
  const tu_case_t cases[] = {
      {"test_met_pdtrsm_shared_pair", test_met_pdtrsm_shared_pair},
      {"test_met_pdtrsm_row_of_two_is_eq6", test_met_pdtrsm_row_of_two_is_eq6},
      {"test_met_pdtrsm_ring_of_three_by_hand", test_met_pdtrsm_ring_of_three_by_hand},
      {"test_met_pdtrsm_ring_shares_its_links", test_met_pdtrsm_ring_shares_its_links},
      {"test_met_pdtrsm_links_from_the_routes", test_met_pdtrsm_links_from_the_routes},
      {"test_met_pdtrsm_crowded_link", test_met_pdtrsm_crowded_link},
      {NULL, NULL},
  };
  return tu_run("met_pdtrsm", cases);
}
