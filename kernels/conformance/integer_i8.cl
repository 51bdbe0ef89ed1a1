// Conformance kernels for the char integer builtins.
#define T char
#define UT uchar
#define SUF i8
#define WIDE short
#include "integer_kernels.h"
