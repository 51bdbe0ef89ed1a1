// Conformance kernels for one floating-point type: the including file defines T (float, double
// or half) and SUF (f32, f64, f16). Every kernel evaluates its builtin once per work-item, on
// inputs the host chose, and stores what it got; the host compares against its reference.
// Kernel names are <builtin>_<SUF> for the scalar form and <builtin>_<SUF>x<width> for the
// vector form (the same buffers, read as vectors).

#define STROBE_CAT_(a, b) a##b
#define STROBE_CAT(a, b) STROBE_CAT_(a, b)
#define STROBE_NAME(f) STROBE_CAT(STROBE_CAT(f, _), SUF)
#define STROBE_VNAME(f, w) STROBE_CAT(STROBE_CAT(STROBE_NAME(f), x), w)
#define STROBE_VEC(w) STROBE_CAT(T, w)
#define STROBE_IVEC(w) STROBE_CAT(int, w)

#define STROBE_UNARY(f, w)                                                                         \
  __kernel void STROBE_NAME(f)(__global const T* x, __global T* out) {                             \
    size_t i = get_global_id(0);                                                                   \
    out[i] = f(x[i]);                                                                              \
  }                                                                                                \
  __kernel void STROBE_VNAME(f, w)(__global const STROBE_VEC(w)* x, __global STROBE_VEC(w)* out) { \
    size_t i = get_global_id(0);                                                                   \
    out[i] = f(x[i]);                                                                              \
  }

#define STROBE_BINARY(f, w)                                                                                  \
  __kernel void STROBE_NAME(f)(__global const T* x, __global const T* y, __global T* out) {                  \
    size_t i = get_global_id(0);                                                                             \
    out[i] = f(x[i], y[i]);                                                                                  \
  }                                                                                                          \
  __kernel void STROBE_VNAME(f, w)(__global const STROBE_VEC(w)* x, __global const STROBE_VEC(w)* y,         \
                                   __global STROBE_VEC(w)* out) {                                            \
    size_t i = get_global_id(0);                                                                             \
    out[i] = f(x[i], y[i]);                                                                                  \
  }

#define STROBE_TERNARY(f, w)                                                                                 \
  __kernel void STROBE_NAME(f)(__global const T* x, __global const T* y, __global const T* z, __global T* out) { \
    size_t i = get_global_id(0);                                                                             \
    out[i] = f(x[i], y[i], z[i]);                                                                            \
  }                                                                                                          \
  __kernel void STROBE_VNAME(f, w)(__global const STROBE_VEC(w)* x, __global const STROBE_VEC(w)* y,         \
                                   __global const STROBE_VEC(w)* z, __global STROBE_VEC(w)* out) {           \
    size_t i = get_global_id(0);                                                                             \
    out[i] = f(x[i], y[i], z[i]);                                                                            \
  }

#include "math_list.h"

// gentype f(gentype, intn): ldexp, pown, rootn.
#define STROBE_WITH_INT(f, w)                                                                               \
  __kernel void STROBE_NAME(f)(__global const T* x, __global const int* n, __global T* out) {               \
    size_t i = get_global_id(0);                                                                            \
    out[i] = f(x[i], n[i]);                                                                                 \
  }                                                                                                         \
  __kernel void STROBE_VNAME(f, w)(__global const STROBE_VEC(w)* x, __global const STROBE_IVEC(w)* n,       \
                                   __global STROBE_VEC(w)* out) {                                           \
    size_t i = get_global_id(0);                                                                            \
    out[i] = f(x[i], n[i]);                                                                                 \
  }
STROBE_WITH_INT(ldexp, 4)
STROBE_WITH_INT(pown, 8)
STROBE_WITH_INT(rootn, 2)

// gentype f(gentype, gentype* second): fract, modf, sincos; the second result goes to out2.
#define STROBE_TWO_RESULTS(f, w, T2, V2)                                                                    \
  __kernel void STROBE_NAME(f)(__global const T* x, __global T* out, __global T2* out2) {                   \
    size_t i = get_global_id(0);                                                                            \
    T2 second;                                                                                              \
    out[i] = f(x[i], &second);                                                                              \
    out2[i] = second;                                                                                       \
  }                                                                                                         \
  __kernel void STROBE_VNAME(f, w)(__global const STROBE_VEC(w)* x, __global STROBE_VEC(w)* out,            \
                                   __global V2* out2) {                                                     \
    size_t i = get_global_id(0);                                                                            \
    V2 second;                                                                                              \
    out[i] = f(x[i], &second);                                                                              \
    out2[i] = second;                                                                                       \
  }
STROBE_TWO_RESULTS(fract, 16, T, STROBE_VEC(16))
STROBE_TWO_RESULTS(modf, 2, T, STROBE_VEC(2))
STROBE_TWO_RESULTS(sincos, 4, T, STROBE_VEC(4))
STROBE_TWO_RESULTS(frexp, 8, int, STROBE_IVEC(8))
STROBE_TWO_RESULTS(lgamma_r, 16, int, STROBE_IVEC(16))

// remquo(x, y, &quo)
__kernel void STROBE_NAME(remquo)(__global const T* x, __global const T* y, __global T* out, __global int* quo) {
  size_t i = get_global_id(0);
  int q;
  out[i] = remquo(x[i], y[i], &q);
  quo[i] = q;
}
__kernel void STROBE_VNAME(remquo, 4)(__global const STROBE_VEC(4)* x, __global const STROBE_VEC(4)* y,
                                      __global STROBE_VEC(4)* out, __global int4* quo) {
  size_t i = get_global_id(0);
  int4 q;
  out[i] = remquo(x[i], y[i], &q);
  quo[i] = q;
}

// intn ilogb(gentype)
__kernel void STROBE_NAME(ilogb)(__global const T* x, __global int* out) { out[get_global_id(0)] = ilogb(x[get_global_id(0)]); }
__kernel void STROBE_VNAME(ilogb, 2)(__global const STROBE_VEC(2)* x, __global int2* out) {
  out[get_global_id(0)] = ilogb(x[get_global_id(0)]);
}
