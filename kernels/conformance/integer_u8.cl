// Conformance kernels for the uchar integer builtins.
#define T uchar
#define UT uchar
#define SUF u8
#define WIDE ushort
#include "integer_kernels.h"
