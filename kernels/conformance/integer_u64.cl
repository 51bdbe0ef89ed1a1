// Conformance kernels for the ulong integer builtins.
#define T ulong
#define UT ulong
#define SUF u64
#include "integer_kernels.h"
