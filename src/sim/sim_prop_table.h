/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The rows of the table of simrun's platform properties (sim_prop.h), one SIM_PROP(ID, fields...) each: its enum name
 * SIM_PROP_<ID> and its descriptor's fields (sim_prop_t). Included twice, by sim_prop.h for the enum and by sim_prop.c
 * for the descriptors, so it has no include guard. Adding a property is one row here, its reader, and its row in
 * docs/properties.md (test_sim_prop holds the two tables together; test_sim_properties perturbs every row by its
 * `example`). Ranges: lo..hi, lo excluded when `open`; the upper bounds are the physical ranges of
 * docs/hostile-input.md (1e12 us is eleven days, 1e18 an exaflop in one host). */

/* The machine model of the root zone (seed 001 eqs. 3-6, Table 2) and the send semantics: sim_machine. */
SIM_PROP(COMM_MODEL, .name = "simrun:comm-model", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_WORD, .count = 1,
         .words = "piecewise", .unit = "-", .fallback = "SimGrid's network model", .reader = "sim_machine",
         .example = NULL, .meaning = "the message model: piecewise is eq. 4 with Table 2's two regimes")
SIM_PROP(COMM_PACKET_BYTES, .name = "simrun:comm-packet-bytes", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER,
         .count = 1, .lo = 0, .hi = 1e12, .unit = "bytes", .fallback = "-", .reader = "sim_machine", .example = "64",
         .meaning = "p_s of eq. 4: the packet size that splits the small and large regimes")
SIM_PROP(COMM_SMALL_US, .name = "simrun:comm-small-us", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER, .count = 4,
         .lo = -1e12, .hi = 1e12, .unit = "us, us/B, us/hop, us/B/hop", .fallback = "-", .reader = "sim_machine",
         .example = "0 0.5 0 0", .meaning = "alpha, beta, gamma, delta of eq. 4 for messages of at most p_s bytes")
SIM_PROP(COMM_LARGE_US, .name = "simrun:comm-large-us", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER, .count = 4,
         .lo = -1e12, .hi = 1e12, .unit = "us, us/B, us/hop, us/B/hop", .fallback = "-", .reader = "sim_machine",
         .example = "1000 0 0 0", .meaning = "alpha, beta, gamma, delta of eq. 4 for messages above p_s bytes")
SIM_PROP(INTERNODE_PACKET_BYTES, .name = "simrun:internode-packet-bytes", .scope = SIM_SCOPE_ROOT,
         .type = SIM_TYPE_NUMBER, .count = 1, .lo = 0, .hi = 1e12, .unit = "bytes", .fallback = "the comm-* model",
         .reader = "sim_machine", .example = "64",
         .meaning = "p_s of eq. 4 for messages between nodes (with internode-small-us and -large-us: all or none)")
SIM_PROP(INTERNODE_SMALL_US, .name = "simrun:internode-small-us", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER,
         .count = 4, .lo = -1e12, .hi = 1e12, .unit = "us, us/B, us/hop, us/B/hop", .fallback = "the comm-* model",
         .reader = "sim_machine", .example = "0 0.5 0 0",
         .meaning = "alpha, beta, gamma, delta of eq. 4 between nodes, messages of at most its p_s bytes")
SIM_PROP(INTERNODE_LARGE_US, .name = "simrun:internode-large-us", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER,
         .count = 4, .lo = -1e12, .hi = 1e12, .unit = "us, us/B, us/hop, us/B/hop", .fallback = "the comm-* model",
         .reader = "sim_machine", .example = "1000 0 0 0",
         .meaning = "alpha, beta, gamma, delta of eq. 4 between nodes, messages above its p_s bytes")
SIM_PROP(NODE, .name = "simrun:node", .scope = SIM_SCOPE_HOST_ONLY, .type = SIM_TYPE_INTEGER, .count = 1, .lo = 0,
         .hi = 65535, .unit = "-", .fallback = "a node of its own", .reader = "sim_machine", .example = "1",
         .meaning = "the node the host is a core of: messages between hosts of one node take the comm-* model")
SIM_PROP(LINK_INIT_US, .name = "simrun:link-init-us", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER, .count = 1,
         .lo = 0, .hi = 1e12, .unit = "us", .fallback = "0", .reader = "sim_machine", .example = "1e4",
         .meaning = "eq. 3: the cost of initialising one link")
SIM_PROP(LINK_INIT_BY_P, .name = "simrun:link-init-by-p", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_PAIRS, .count = 2,
         .lo = 0, .hi = 1e12, .unit = "ranks, s", .fallback = "link-init-us x links", .reader = "sim_machine",
         .example = "2 0.5",
         .meaning = "pairs \"p seconds\": a run's whole link initialisation on p ranks (docs/t800.md)")
SIM_PROP(IO_INPUT_US, .name = "simrun:io-input-us", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER, .count = 2,
         .lo = 0, .hi = 1e12, .unit = "us, us/B", .fallback = "0 0", .reader = "sim_machine", .example = "0 1",
         .meaning = "alpha, beta of eq. 5: host input")
SIM_PROP(IO_OUTPUT_US, .name = "simrun:io-output-us", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER, .count = 2,
         .lo = 0, .hi = 1e12, .unit = "us, us/B", .fallback = "0 0", .reader = "sim_machine", .example = "1e4 0",
         .meaning = "alpha, beta of eq. 6: host output")
SIM_PROP(EAGER_BYTES, .name = "simrun:eager-bytes", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER, .count = 1,
         .lo = 0, .hi = 1e12, .unit = "bytes", .fallback = "0", .reader = "sim_machine", .example = "0",
         .meaning = "the message library's eager limit: a send of at most this many bytes is over for its sender")
SIM_PROP(EAGER_START, .name = "simrun:eager-start", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_WORD, .count = 1,
         .words = "send | receive", .unit = "-", .fallback = "receive", .reader = "sim_machine", .example = "send",
         .meaning = "when an eager message starts moving: when sent (TCP, SMPI's smpi/async-small-thresh) or received")
SIM_PROP(PAGE_FAULT_US, .name = "simrun:page-fault-us", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER, .count = 1,
         .lo = 0, .hi = 1e12, .unit = "us", .fallback = "0", .reader = "sim_machine", .example = "1e4",
         .meaning = "a minor page fault: what a traced call's faults (a TI trace's faults action) cost its rank")
SIM_PROP(FIRST_CALL_US, .name = "simrun:first-call-us", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER, .count = 1,
         .lo = 0, .hi = 1e12, .unit = "us", .fallback = "0", .reader = "sim_machine", .example = "10",
         .meaning = "what a process's first collective of a kind costs beyond the next one (a TI replay charges it)")

/* Each host's characterisation (seed 001 eq. 2), from the host or the innermost zone around it: sim_machine. */
SIM_PROP(CLOCK_HZ, .name = "simrun:clock-hz", .scope = SIM_SCOPE_HOST, .type = SIM_TYPE_NUMBER, .count = 1, .lo = 0,
         .open = 1, .hi = 1e18, .unit = "cycles/s", .fallback = "the host's speed", .reader = "sim_machine",
         .example = "3.5e6", .meaning = "the processor clock")
SIM_PROP(CYCLES_CPU, .name = "simrun:cycles-cpu", .scope = SIM_SCOPE_HOST, .type = SIM_TYPE_NUMBER, .count = 1, .lo = 0,
         .hi = 1e12, .unit = "cycles", .fallback = "1", .reader = "sim_machine", .example = "0",
         .meaning = "one integer or control instruction")
SIM_PROP(CYCLES_FLOP, .name = "simrun:cycles-flop", .scope = SIM_SCOPE_HOST, .type = SIM_TYPE_NUMBER, .count = 1,
         .lo = 0, .hi = 1e12, .unit = "cycles", .fallback = "1", .reader = "sim_machine", .example = "1000",
         .meaning = "one floating-point operation")
SIM_PROP(CYCLES_INTMEM, .name = "simrun:cycles-intmem", .scope = SIM_SCOPE_HOST, .type = SIM_TYPE_NUMBER, .count = 1,
         .lo = 0, .hi = 1e12, .unit = "cycles", .fallback = "0", .reader = "sim_machine", .example = "0.5",
         .meaning = "one access to internal memory (registers spilled, on-chip workspace, an L1 hit)")
SIM_PROP(CYCLES_EXTMEM, .name = "simrun:cycles-extmem", .scope = SIM_SCOPE_HOST, .type = SIM_TYPE_NUMBER, .count = 1,
         .lo = 0, .hi = 1e12, .unit = "cycles", .fallback = "0", .reader = "sim_machine", .example = "0",
         .meaning = "one access to external memory (the program's data arrays)")
SIM_PROP(MEMORY_BYTES, .name = "simrun:memory-bytes", .scope = SIM_SCOPE_HOST, .type = SIM_TYPE_NUMBER, .count = 1,
         .lo = 0, .open = 1, .hi = 1e18, .unit = "bytes", .fallback = "unknown: not checked",
         .reader = "sim_machine, sim_dsm", .example = "4096",
         .meaning = "the host's memory, for the memory-fit check (seed 003 §5.2)")
SIM_PROP(CACHE_BYTES, .name = "simrun:cache-bytes", .scope = SIM_SCOPE_HOST, .type = SIM_TYPE_NUMBER, .count = 1,
         .lo = 0, .open = 1, .hi = 1e18, .unit = "bytes", .fallback = "no cache level", .reader = "sim_machine",
         .example = "1e6", .meaning = "a cache level in front of external memory (with cycles-cache)")
SIM_PROP(CYCLES_CACHE, .name = "simrun:cycles-cache", .scope = SIM_SCOPE_HOST, .type = SIM_TYPE_NUMBER, .count = 1,
         .lo = 0, .hi = 1e12, .unit = "cycles", .fallback = "-", .reader = "sim_machine", .example = "100",
         .meaning = "one external access whose working set fits in the cache level")

/* Ranks to hosts: sim_map. */
SIM_PROP(ROW, .name = "simrun:row", .scope = SIM_SCOPE_HOST_ONLY, .type = SIM_TYPE_INTEGER, .count = 1, .lo = 0,
         .hi = 65535, .unit = "-", .fallback = "not a mesh", .reader = "sim_map", .example = "0",
         .meaning = "the host's row in a mesh (with col): ranks take compact snake-ordered partitions")
SIM_PROP(COL, .name = "simrun:col", .scope = SIM_SCOPE_HOST_ONLY, .type = SIM_TYPE_INTEGER, .count = 1, .lo = 0,
         .hi = 65535, .unit = "-", .fallback = "not a mesh", .reader = "sim_map", .example = "1",
         .meaning = "the host's column in a mesh (with row)")
SIM_PROP(ORDER, .name = "simrun:order", .scope = SIM_SCOPE_HOST_ONLY, .type = SIM_TYPE_INTEGER, .count = 1, .lo = -1e18,
         .hi = 1e18, .unit = "-", .fallback = "name order", .reader = "sim_map", .example = "9",
         .meaning = "the host's place in rank order, when every host has one")
SIM_PROP(PLACEMENT, .name = "simrun:placement", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_WORD, .count = 1,
         .words = "gray", .unit = "-", .fallback = "mesh partitions, else name order", .reader = "sim_map",
         .example = "gray", .meaning = "rank r on host gray(r) in name order, as on a hypercube")

/* The SuperCluster's links between clusters (docs/t800.md): sim_cluster. */
SIM_PROP(C004_DELAY_BITS, .name = "simrun:c004-delay-bits", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER,
         .count = 1, .lo = 0, .open = 1, .hi = 1e12, .unit = "bit periods", .fallback = "a flat machine",
         .reader = "sim_cluster", .example = "7",
         .meaning = "the delay of one C004 stage, each way (with link-bit-rate)")
SIM_PROP(LINK_BIT_RATE, .name = "simrun:link-bit-rate", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER, .count = 1,
         .lo = 0, .open = 1, .hi = 1e18, .unit = "bit/s", .fallback = "a flat machine", .reader = "sim_cluster",
         .example = "5e6", .meaning = "the links' bit rate, which times a stage's delay")
SIM_PROP(FORWARD_BUFFERS, .name = "simrun:forward-buffers", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_INTEGER,
         .count = 1, .lo = 1, .hi = 2, .unit = "packets", .fallback = "1", .reader = "sim_cluster", .example = "2",
         .meaning = "packet buffers of a transputer that forwards a message")
SIM_PROP(EXTRA_C004_STAGES, .name = "simrun:extra-c004-stages", .scope = SIM_SCOPE_LINK, .type = SIM_TYPE_NUMBER,
         .count = 1, .lo = 0, .hi = 1e12, .unit = "stages", .fallback = "0", .reader = "sim_cluster", .example = "6",
         .meaning = "the C004 stages a link passes beyond those of a link inside a cluster")
SIM_PROP(ACK_US, .name = "simrun:ack-us", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER, .count = 2, .lo = 0,
         .hi = 1e12, .unit = "us, us/hop", .fallback = "no acknowledgement", .reader = "sim_cluster",
         .example = "500 50", .meaning = "alpha, gamma: a message's end-to-end acknowledgement, alpha + gamma d")
SIM_PROP(RELAY_CPU_US, .name = "simrun:relay-cpu-us", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER, .count = 1,
         .lo = 0, .hi = 1e12, .unit = "us/packet", .fallback = "0", .reader = "sim_cluster", .example = "5000",
         .meaning = "CPU a transputer loses per packet it forwards while it computes")

/* TreadMarks on the NCP2 (docs/ncp2.md, platforms/ncp2-myrinet-8.xml): sim_dsm. */
SIM_PROP(CP, .name = "simrun:cp", .scope = SIM_SCOPE_HOST_ONLY, .type = SIM_TYPE_HOST, .count = 1, .unit = "-",
         .fallback = "not an NCP2 node", .reader = "sim_dsm", .example = "ncp2-cp1",
         .meaning = "the host of the node's protocol controller")
SIM_PROP(DSM_PAGE_BYTES, .name = "simrun:dsm-page-bytes", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_POW2, .count = 1,
         .lo = 256, .hi = 1048576, .unit = "bytes", .fallback = "-", .reader = "sim_dsm", .example = "1024",
         .meaning = "the DSM page")
SIM_PROP(DSM_WORD_BYTES, .name = "simrun:dsm-word-bytes", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_POW2, .count = 1,
         .lo = 1, .hi = 8, .unit = "bytes", .fallback = "-", .reader = "sim_dsm", .example = "8",
         .meaning = "the word a diff compares")
SIM_PROP(DSM_HEADER_BYTES, .name = "simrun:dsm-header-bytes", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER,
         .count = 1, .lo = 0, .hi = 1e12, .unit = "bytes", .fallback = "-", .reader = "sim_dsm", .example = "4096",
         .meaning = "a protocol message's header")
SIM_PROP(DSM_NOTICE_BYTES, .name = "simrun:dsm-notice-bytes", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER,
         .count = 1, .lo = 0, .hi = 1e12, .unit = "bytes", .fallback = "-", .reader = "sim_dsm", .example = "4096",
         .meaning = "one write notice")
SIM_PROP(DSM_INTERRUPT_US, .name = "simrun:dsm-interrupt-us", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER,
         .count = 1, .lo = 0, .hi = 1e12, .unit = "us", .fallback = "-", .reader = "sim_dsm", .example = "1000",
         .meaning = "taking an interrupt on the processor")
SIM_PROP(DSM_HANDLER_CYCLES, .name = "simrun:dsm-handler-cycles", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER,
         .count = 1, .lo = 0, .hi = 1e12, .unit = "cycles", .fallback = "-", .reader = "sim_dsm", .example = "1e6",
         .meaning = "a request handler's software")
SIM_PROP(DSM_FAULT_CYCLES, .name = "simrun:dsm-fault-cycles", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER,
         .count = 1, .lo = 0, .hi = 1e12, .unit = "cycles", .fallback = "-", .reader = "sim_dsm", .example = "1e6",
         .meaning = "taking an access fault")
SIM_PROP(DSM_PAGE_CYCLES, .name = "simrun:dsm-page-cycles", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER,
         .count = 1, .lo = 0, .hi = 1e12, .unit = "cycles", .fallback = "-", .reader = "sim_dsm", .example = "1e6",
         .meaning = "copying or protecting a page in software")
SIM_PROP(DSM_CP_COMMAND_CYCLES, .name = "simrun:dsm-cp-command-cycles", .scope = SIM_SCOPE_ROOT,
         .type = SIM_TYPE_NUMBER, .count = 1, .lo = 0, .hi = 1e12, .unit = "cycles", .fallback = "-",
         .reader = "sim_dsm", .example = "1e6", .meaning = "a protocol controller's command")
SIM_PROP(DSM_CP_WORD_CYCLES, .name = "simrun:dsm-cp-word-cycles", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER,
         .count = 1, .lo = 0, .hi = 1e12, .unit = "cycles", .fallback = "-", .reader = "sim_dsm", .example = "1e4",
         .meaning = "a protocol controller's work per word")
SIM_PROP(DSM_CP_PAGE_CYCLES, .name = "simrun:dsm-cp-page-cycles", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER,
         .count = 1, .lo = 0, .hi = 1e12, .unit = "cycles", .fallback = "-", .reader = "sim_dsm", .example = "1e6",
         .meaning = "a protocol controller's work per page")
SIM_PROP(DSM_SW_MESSAGE_CYCLES, .name = "simrun:dsm-sw-message-cycles", .scope = SIM_SCOPE_ROOT,
         .type = SIM_TYPE_NUMBER, .count = 1, .lo = 0, .hi = 1e12, .unit = "cycles", .fallback = "-",
         .reader = "sim_dsm", .example = "1e6", .meaning = "the software protocol's cost per message")
SIM_PROP(DSM_SW_BYTE_CYCLES, .name = "simrun:dsm-sw-byte-cycles", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER,
         .count = 1, .lo = 0, .hi = 1e12, .unit = "cycles", .fallback = "-", .reader = "sim_dsm", .example = "1e3",
         .meaning = "the software protocol's cost per byte")
SIM_PROP(DSM_SW_WORD_CYCLES, .name = "simrun:dsm-sw-word-cycles", .scope = SIM_SCOPE_ROOT, .type = SIM_TYPE_NUMBER,
         .count = 1, .lo = 0, .hi = 1e12, .unit = "cycles", .fallback = "-", .reader = "sim_dsm", .example = "1e4",
         .meaning = "the software protocol's cost per word")

/* Native meshes, tori and fat trees, built at load time (docs/topologies.md): sim_grid. */
SIM_PROP(GRID, .name = "simrun:grid", .scope = SIM_SCOPE_ZONE, .type = SIM_TYPE_SHAPE, .count = 1, .unit = "-",
         .fallback = "-", .reader = "sim_grid", .example = "torus 1x3",
         .meaning = "the zone is a native mesh ROWSxCOLS, torus ROWSxCOLS or fattree K:L")
SIM_PROP(GRID_SPEED, .name = "simrun:grid-speed", .scope = SIM_SCOPE_ZONE, .type = SIM_TYPE_SIMGRID, .count = 1,
         .unit = "flop/s", .fallback = "-", .reader = "sim_grid", .example = "2Gf",
         .meaning = "the native grid's host speed, with a SimGrid unit")
SIM_PROP(GRID_BANDWIDTH, .name = "simrun:grid-bandwidth", .scope = SIM_SCOPE_ZONE, .type = SIM_TYPE_SIMGRID, .count = 1,
         .unit = "B/s", .fallback = "-", .reader = "sim_grid", .example = "1MBps",
         .meaning = "the native grid's link bandwidth, with a SimGrid unit")
SIM_PROP(GRID_LATENCY, .name = "simrun:grid-latency", .scope = SIM_SCOPE_ZONE, .type = SIM_TYPE_SIMGRID, .count = 1,
         .unit = "s", .fallback = "-", .reader = "sim_grid", .example = "1ms",
         .meaning = "the native grid's link latency, with a SimGrid unit")
