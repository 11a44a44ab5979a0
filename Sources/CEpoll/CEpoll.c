// Declarations only: see include/CEpoll.h. A C target needs one source file.
#include "CEpoll.h"
