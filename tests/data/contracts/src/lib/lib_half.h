/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A header for scripts/check-contracts to judge (tests/CMakeLists.txt, check_contracts_finds_bare): lib_half_new has
 * its contract, lib_half_count none (a blank line parts it from the group above). */
#ifndef LIB_HALF_H
#define LIB_HALF_H

/* A new, empty half; NULL when out of memory. Free with lib_half_free (accepts NULL). */
typedef struct lib_half lib_half_t;
lib_half_t *lib_half_new(void);
void lib_half_free(lib_half_t *half);

int lib_half_count(const lib_half_t *half);

#endif
