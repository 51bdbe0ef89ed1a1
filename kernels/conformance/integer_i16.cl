// Conformance kernels for the short integer builtins.
#define T short
#define UT ushort
#define SUF i16
#define WIDE int
#include "integer_kernels.h"
