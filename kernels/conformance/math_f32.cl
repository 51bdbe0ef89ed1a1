// Conformance kernels for the float math builtins, and the float-only half_ and native_ forms.
#define T float
#define SUF f32
#include "math_kernels.h"

STROBE_UNARY(half_cos, 2)
STROBE_UNARY(half_exp, 4)
STROBE_UNARY(half_exp2, 8)
STROBE_UNARY(half_exp10, 16)
STROBE_UNARY(half_log, 2)
STROBE_UNARY(half_log2, 4)
STROBE_UNARY(half_log10, 8)
STROBE_UNARY(half_recip, 16)
STROBE_UNARY(half_rsqrt, 2)
STROBE_UNARY(half_sin, 4)
STROBE_UNARY(half_sqrt, 8)
STROBE_UNARY(half_tan, 16)
STROBE_BINARY(half_divide, 2)
STROBE_BINARY(half_powr, 4)
STROBE_UNARY(native_cos, 8)
STROBE_UNARY(native_exp, 16)
STROBE_UNARY(native_exp2, 2)
STROBE_UNARY(native_exp10, 4)
STROBE_UNARY(native_log, 8)
STROBE_UNARY(native_log2, 16)
STROBE_UNARY(native_log10, 2)
STROBE_UNARY(native_recip, 4)
STROBE_UNARY(native_rsqrt, 8)
STROBE_UNARY(native_sin, 16)
STROBE_UNARY(native_sqrt, 2)
STROBE_UNARY(native_tan, 4)
STROBE_BINARY(native_divide, 8)
STROBE_BINARY(native_powr, 16)

// x / y: 2.5 ulp for float (spec table 7.1), correctly rounded with -cl-fp32-correctly-rounded-divide-sqrt.
#define divide(a, b) ((a) / (b))
STROBE_BINARY(divide, 4)
