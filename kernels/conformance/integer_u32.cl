// Conformance kernels for the uint integer builtins.
#define T uint
#define UT uint
#define SUF u32
#define WIDE ulong
#define STROBE_WITH_24BIT
#include "integer_kernels.h"
