/* Half of a circle for scripts/check-includes. */
#include "b.h"
