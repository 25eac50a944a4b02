/* The other half of the circle. */
#include "a.h"
