// The relational builtins of OpenCL C 2.0 section 6.13.6 that the conformance kernels
// instantiate, as X-macros shared with the host test: the function and the width of its
// vector form. Scalar forms return int 1 or 0; vector forms return -1 or 0 in the signed
// integer type of the argument's element size (int for float, long for double).

// intn f(gentype)
STROBE_REL_UNARY(isfinite, 2)
STROBE_REL_UNARY(isinf, 4)
STROBE_REL_UNARY(isnan, 8)
STROBE_REL_UNARY(isnormal, 16)
STROBE_REL_UNARY(signbit, 2)

// intn f(gentype, gentype)
STROBE_REL_BINARY(isequal, 4)
STROBE_REL_BINARY(isnotequal, 8)
STROBE_REL_BINARY(isgreater, 16)
STROBE_REL_BINARY(isgreaterequal, 2)
STROBE_REL_BINARY(isless, 4)
STROBE_REL_BINARY(islessequal, 8)
STROBE_REL_BINARY(islessgreater, 16)
STROBE_REL_BINARY(isordered, 2)
STROBE_REL_BINARY(isunordered, 4)

// int f(igentype), on the integer type of the element size.
STROBE_REL_ANYALL(any, 8)
STROBE_REL_ANYALL(all, 16)

// gentype bitselect(gentype, gentype, gentype), gentype select(gentype, gentype, igentype)
STROBE_REL_BITSELECT(bitselect, 2)
STROBE_REL_SELECT(select, 4)
