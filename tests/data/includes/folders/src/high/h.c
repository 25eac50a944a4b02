/* The higher folder, which includes the lower one, as it may. */
#include "h.h"
#include "l.h"
