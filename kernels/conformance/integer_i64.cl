// Conformance kernels for the long integer builtins.
#define T long
#define UT ulong
#define SUF i64
#include "integer_kernels.h"
