// Conformance kernels for the relational builtins of one floating type: the including file
// defines T (float or double), IT (the integer type of the same size: int or long) and SUF
// (f32, f64). Kernel names are <builtin>_<SUF> and <builtin>_<SUF>x<width>. Unary and binary
// predicates store int for the scalar form and IT vectors for the vector form.

#define STROBE_CAT_(a, b) a##b
#define STROBE_CAT(a, b) STROBE_CAT_(a, b)
#define STROBE_NAME(f) STROBE_CAT(STROBE_CAT(f, _), SUF)
#define STROBE_VNAME(f, w) STROBE_CAT(STROBE_CAT(STROBE_NAME(f), x), w)
#define STROBE_V(w) STROBE_CAT(T, w)
#define STROBE_IV(w) STROBE_CAT(IT, w)

#define STROBE_REL_UNARY(f, w)                                                                          \
  __kernel void STROBE_NAME(f)(__global const T* x, __global int* out) { out[get_global_id(0)] = f(x[get_global_id(0)]); } \
  __kernel void STROBE_VNAME(f, w)(__global const STROBE_V(w)* x, __global STROBE_IV(w)* out) {          \
    out[get_global_id(0)] = f(x[get_global_id(0)]);                                                     \
  }
#define STROBE_REL_BINARY(f, w)                                                                           \
  __kernel void STROBE_NAME(f)(__global const T* x, __global const T* y, __global int* out) {             \
    size_t i = get_global_id(0);                                                                          \
    out[i] = f(x[i], y[i]);                                                                               \
  }                                                                                                       \
  __kernel void STROBE_VNAME(f, w)(__global const STROBE_V(w)* x, __global const STROBE_V(w)* y,          \
                                   __global STROBE_IV(w)* out) {                                          \
    size_t i = get_global_id(0);                                                                          \
    out[i] = f(x[i], y[i]);                                                                               \
  }
// any/all read IT elements; one int result per scalar or vector.
#define STROBE_REL_ANYALL(f, w)                                                                           \
  __kernel void STROBE_NAME(f)(__global const IT* x, __global int* out) { out[get_global_id(0)] = f(x[get_global_id(0)]); } \
  __kernel void STROBE_VNAME(f, w)(__global const STROBE_IV(w)* x, __global int* out) {                   \
    out[get_global_id(0)] = f(x[get_global_id(0)]);                                                       \
  }
#define STROBE_REL_BITSELECT(f, w)                                                                        \
  __kernel void STROBE_NAME(f)(__global const T* x, __global const T* y, __global const T* z, __global T* out) { \
    size_t i = get_global_id(0);                                                                          \
    out[i] = f(x[i], y[i], z[i]);                                                                         \
  }                                                                                                       \
  __kernel void STROBE_VNAME(f, w)(__global const STROBE_V(w)* x, __global const STROBE_V(w)* y,          \
                                   __global const STROBE_V(w)* z, __global STROBE_V(w)* out) {            \
    size_t i = get_global_id(0);                                                                          \
    out[i] = f(x[i], y[i], z[i]);                                                                         \
  }
#define STROBE_REL_SELECT(f, w)                                                                           \
  __kernel void STROBE_NAME(f)(__global const T* x, __global const T* y, __global const IT* z, __global T* out) { \
    size_t i = get_global_id(0);                                                                          \
    out[i] = f(x[i], y[i], z[i]);                                                                         \
  }                                                                                                       \
  __kernel void STROBE_VNAME(f, w)(__global const STROBE_V(w)* x, __global const STROBE_V(w)* y,          \
                                   __global const STROBE_IV(w)* z, __global STROBE_V(w)* out) {           \
    size_t i = get_global_id(0);                                                                          \
    out[i] = f(x[i], y[i], z[i]);                                                                         \
  }

#include "relational_list.h"

// Geometric functions (section 6.13.5) on vectors of 2, 3 and 4 elements: dot, length,
// distance and normalize for each, cross for 3 and 4. Vectors of 3 are read and written with
// vload3/vstore3 (a T3 occupies four elements in memory).
#define STROBE_GEO(n, LOAD, STORE)                                                                        \
  __kernel void STROBE_VNAME(dot, n)(__global const T* x, __global const T* y, __global T* out) {          \
    size_t i = get_global_id(0);                                                                          \
    out[i] = dot(LOAD(i, x), LOAD(i, y));                                                                 \
  }                                                                                                       \
  __kernel void STROBE_VNAME(distance, n)(__global const T* x, __global const T* y, __global T* out) {     \
    size_t i = get_global_id(0);                                                                          \
    out[i] = distance(LOAD(i, x), LOAD(i, y));                                                            \
  }                                                                                                       \
  __kernel void STROBE_VNAME(length, n)(__global const T* x, __global const T* y, __global T* out) {       \
    size_t i = get_global_id(0);                                                                          \
    out[i] = length(LOAD(i, x));                                                                          \
  }                                                                                                       \
  __kernel void STROBE_VNAME(normalize, n)(__global const T* x, __global const T* y, __global T* out) {    \
    size_t i = get_global_id(0);                                                                          \
    STORE(normalize(LOAD(i, x)), i, out);                                                                 \
  }
STROBE_GEO(2, vload2, vstore2)
STROBE_GEO(3, vload3, vstore3)
STROBE_GEO(4, vload4, vstore4)
__kernel void STROBE_VNAME(cross, 3)(__global const T* x, __global const T* y, __global T* out) {
  size_t i = get_global_id(0);
  vstore3(cross(vload3(i, x), vload3(i, y)), i, out);
}
__kernel void STROBE_VNAME(cross, 4)(__global const T* x, __global const T* y, __global T* out) {
  size_t i = get_global_id(0);
  vstore4(cross(vload4(i, x), vload4(i, y)), i, out);
}
