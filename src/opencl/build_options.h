// Program build options: split like a shell would, checked against what strobe can honour, and
// turned into compiler arguments. Nothing is dropped silently: an option strobe does not pass
// on is an error (CL_INVALID_BUILD_OPTIONS), and one it adjusts is noted in the build log.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "opencl/cl_api.h"

namespace strobe::opencl {

/// The math options that choose ROCm's oclc_* control libraries, as ROCm's clang driver does.
struct MathLibraryControls {
  bool daz_opt = false;                 ///< -cl-denorms-are-zero: oclc_daz_opt_on (always on for gfx803)
  bool finite_only = false;             ///< -cl-finite-math-only, -cl-fast-relaxed-math: oclc_finite_only_on
  bool unsafe_math = false;             ///< -cl-unsafe-math-optimizations, -cl-fast-relaxed-math: oclc_unsafe_math_on
  bool correctly_rounded_sqrt = false;  ///< -cl-fp32-correctly-rounded-divide-sqrt: oclc_correctly_rounded_sqrt_on
};

/// Options checked and translated for the compiler and linker.
struct BuildOptions {
  std::vector<std::string> compiler_args;  ///< appended to the fixed clang flags
  MathLibraryControls math;                ///< which device library variants to link
  bool kernel_arg_info = false;            ///< -cl-kernel-arg-info
  bool create_library = false;             ///< link: -create-library
  std::string notes;                       ///< lines for the build log
};

/// Splits an option string on blanks, honouring single and double quotes and backslashes.
/// Throws ClError(`invalid_code`) for an unterminated quote.
std::vector<std::string> split_options(std::string_view options, cl_int invalid_code);

/// Options of clBuildProgram and clCompileProgram: -D, -U, -I (relative paths are taken from
/// the current directory), -include, -cl-*, -w, -W*, -g, -O*. Throws ClError(`invalid_code`)
/// naming anything else.
BuildOptions parse_compile_options(std::string_view options, cl_int invalid_code);

/// Options of clLinkProgram: -create-library, -enable-link-options and the -cl-* math options
/// the spec allows at link time. Throws ClError(CL_INVALID_LINKER_OPTIONS) for anything else.
BuildOptions parse_link_options(std::string_view options);

}  // namespace strobe::opencl
