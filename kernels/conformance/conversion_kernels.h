// Conformance kernels for the explicit conversions: convert_<dst><mode>(src), scalar and one
// vector width, named cvt_<src>_<dst><mode> and cvt_<src>_<dst><mode>_x<width>. Each work-item
// converts one element (or vector) of the host's inputs and stores the result.

#define STROBE_CONVERT(src, dst, mode, w)                                                          \
  __kernel void cvt_##src##_##dst##mode(__global const src* x, __global dst* out) {                \
    size_t i = get_global_id(0);                                                                   \
    out[i] = convert_##dst##mode(x[i]);                                                            \
  }                                                                                                \
  __kernel void cvt_##src##_##dst##mode##_x##w(__global const src##w* x, __global dst##w* out) {   \
    size_t i = get_global_id(0);                                                                   \
    out[i] = convert_##dst##w##mode(x[i]);                                                         \
  }

#include "conversion_list.h"
