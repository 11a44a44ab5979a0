// Declarations only: see include/CLinuxSystem.h. A C target needs one source file.
#include "CLinuxSystem.h"
