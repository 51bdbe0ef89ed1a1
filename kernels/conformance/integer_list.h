// The integer builtins of the OpenCL C 2.0 specification (section 6.13.3) that the conformance
// kernels instantiate, as X-macros shared with the host test (tests/conformance): each line names
// the function and the width its vector form is tested at, rotating through 2, 4, 8 and 16.
// Every kernel stores its result reinterpreted as the argument type (abs and abs_diff return
// the unsigned type), so the host reads one buffer type per element type.

// gentype f(gentype)
STROBE_INT_UNARY(abs, 2)
STROBE_INT_UNARY(clz, 4)
STROBE_INT_UNARY(ctz, 8)
STROBE_INT_UNARY(popcount, 16)

// gentype f(gentype, gentype)
STROBE_INT_BINARY(abs_diff, 2)
STROBE_INT_BINARY(add_sat, 4)
STROBE_INT_BINARY(sub_sat, 8)
STROBE_INT_BINARY(hadd, 16)
STROBE_INT_BINARY(rhadd, 2)
STROBE_INT_BINARY(max, 4)
STROBE_INT_BINARY(min, 8)
STROBE_INT_BINARY(mul_hi, 16)
STROBE_INT_BINARY(rotate, 2)

// gentype f(gentype, gentype, gentype)
STROBE_INT_TERNARY(clamp, 4)
STROBE_INT_TERNARY(mad_hi, 8)
STROBE_INT_TERNARY(mad_sat, 16)

// int and uint only (the spec defines them for 32-bit types, on 24-bit operands).
STROBE_INT24_BINARY(mul24, 4)
STROBE_INT24_TERNARY(mad24, 8)

// upsample(gentype hi, ugentype lo) -> the type twice as wide; 8, 16 and 32-bit types only.
STROBE_UPSAMPLE(upsample, 2)
