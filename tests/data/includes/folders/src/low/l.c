/* A low layer that includes a higher one (scripts/check-includes: a circle between folders, not modules). */
#include "l.h"
