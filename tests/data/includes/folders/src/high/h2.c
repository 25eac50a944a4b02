/* A second module of the higher folder. */
#include "h2.h"
