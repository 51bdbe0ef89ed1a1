// Conformance kernels for the float relational and geometric builtins.
#define T float
#define IT int
#define SUF f32
#include "relational_kernels.h"
