// Conformance kernels for the ushort integer builtins.
#define T ushort
#define UT ushort
#define SUF u16
#define WIDE uint
#include "integer_kernels.h"
