/* Includes a header of the higher folder. */
#include "h2.h"
