/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SimGrid's tracing categories, which a program traced by libsimrun-trace.so does not need: no-ops. */
#define TRACE_smpi_set_category(category) ((void)(category))
