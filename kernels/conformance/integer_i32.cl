// Conformance kernels for the int integer builtins.
#define T int
#define UT uint
#define SUF i32
#define WIDE long
#define STROBE_WITH_24BIT
#include "integer_kernels.h"
