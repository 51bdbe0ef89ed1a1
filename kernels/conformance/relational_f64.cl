// Conformance kernels for the double relational and geometric builtins.
#define T double
#define IT long
#define SUF f64
#include "relational_kernels.h"
