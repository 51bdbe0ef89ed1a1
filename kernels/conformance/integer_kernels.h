// Conformance kernels for one integer type: the including file defines T (the type), SUF (its
// short name: i8, u8, ..., u64), WIDE (upsample's result type, where the type has one) and
// UT (its unsigned type), STROBE_WITH_24BIT for int and uint. Every kernel applies its builtin once per work-item to
// inputs the host chose; the host checks the results bit for bit. Kernel names are
// <builtin>_<SUF> for the scalar form and <builtin>_<SUF>x<width> for the vector form.

#define STROBE_CAT_(a, b) a##b
#define STROBE_CAT(a, b) STROBE_CAT_(a, b)
#define STROBE_NAME(f) STROBE_CAT(STROBE_CAT(f, _), SUF)
#define STROBE_VNAME(f, w) STROBE_CAT(STROBE_CAT(STROBE_NAME(f), x), w)
// T, or its vector of width w (w empty: the scalar).
#define STROBE_V(w) STROBE_CAT(T, w)
#define STROBE_AS(w) STROBE_CAT(as_, STROBE_V(w))

#define STROBE_INT_UNARY_AT(f, name, w)                                                  \
  __kernel void name(__global const STROBE_V(w)* x, __global STROBE_V(w)* out) {         \
    size_t i = get_global_id(0);                                                         \
    out[i] = STROBE_AS(w)(f(x[i]));                                                      \
  }
#define STROBE_INT_BINARY_AT(f, name, w)                                                                    \
  __kernel void name(__global const STROBE_V(w)* x, __global const STROBE_V(w)* y, __global STROBE_V(w)* out) { \
    size_t i = get_global_id(0);                                                                            \
    out[i] = STROBE_AS(w)(f(x[i], y[i]));                                                                   \
  }
#define STROBE_INT_TERNARY_AT(f, name, w)                                                          \
  __kernel void name(__global const STROBE_V(w)* x, __global const STROBE_V(w)* y,                 \
                     __global const STROBE_V(w)* z, __global STROBE_V(w)* out) {                   \
    size_t i = get_global_id(0);                                                                   \
    out[i] = STROBE_AS(w)(f(x[i], y[i], z[i]));                                                    \
  }

#define STROBE_INT_UNARY(f, w) STROBE_INT_UNARY_AT(f, STROBE_NAME(f), ) STROBE_INT_UNARY_AT(f, STROBE_VNAME(f, w), w)
#define STROBE_INT_BINARY(f, w) STROBE_INT_BINARY_AT(f, STROBE_NAME(f), ) STROBE_INT_BINARY_AT(f, STROBE_VNAME(f, w), w)
#define STROBE_INT_TERNARY(f, w) \
  STROBE_INT_TERNARY_AT(f, STROBE_NAME(f), ) STROBE_INT_TERNARY_AT(f, STROBE_VNAME(f, w), w)

#ifdef STROBE_WITH_24BIT
#define STROBE_INT24_BINARY STROBE_INT_BINARY
#define STROBE_INT24_TERNARY STROBE_INT_TERNARY
#else
#define STROBE_INT24_BINARY(f, w)
#define STROBE_INT24_TERNARY(f, w)
#endif

#ifdef WIDE
// upsample(hi, lo): lo is UT, the unsigned type of the same size, read from the y buffer as bits.
#define STROBE_UT(w) STROBE_CAT(UT, w)
#define STROBE_UPSAMPLE_AT(name, w)                                                                     \
  __kernel void name(__global const STROBE_V(w)* x, __global const STROBE_V(w)* y,                      \
                     __global STROBE_CAT(WIDE, w)* out) {                                               \
    size_t i = get_global_id(0);                                                                        \
    out[i] = upsample(x[i], STROBE_CAT(as_, STROBE_UT(w))(y[i]));                                       \
  }
#define STROBE_UPSAMPLE(f, w) STROBE_UPSAMPLE_AT(STROBE_NAME(f), ) STROBE_UPSAMPLE_AT(STROBE_VNAME(f, w), w)
#else
#define STROBE_UPSAMPLE(f, w)
#endif

#include "integer_list.h"
