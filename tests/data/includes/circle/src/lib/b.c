/* The other half of the circle. */
#include "b.h"
