// Conformance kernels for the double math builtins.
#define T double
#define SUF f64
#include "math_kernels.h"

// x / y: correctly rounded for double.
#define divide(a, b) ((a) / (b))
STROBE_BINARY(divide, 4)
