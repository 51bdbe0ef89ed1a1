// OpenCL C to gfx803 code objects: clang with the flags the project's own kernels are built with
// (cmake/kernels.cmake) and the ROCm device libraries linked in as builtin bitcode, then ld.lld.
// Source builds are cached by content (source, options, compiler, libraries, headers) in the
// program cache.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "opencl/build_options.h"

namespace strobe::opencl {

/// What a compile or link produced.
struct BuildOutput {
  bool ok = false;
  cl_int error = CL_SUCCESS;   ///< on failure: CL_BUILD_PROGRAM_FAILURE, CL_INVALID_BUILD_OPTIONS, ...
  std::string log;             ///< compiler and linker diagnostics
  std::vector<uint8_t> binary; ///< the code object or relocatable object
  bool from_cache = false;
};

/// A header given to clCompileProgram: its include name and its text.
using NamedHeader = std::pair<std::string, std::string>;

/// True if the clang and ld.lld strobe uses can be run.
bool compiler_available();

/// Source to executable code object (clBuildProgram). `failure_code` is the error for a
/// program that does not compile (CL_BUILD_PROGRAM_FAILURE).
BuildOutput build_executable(const std::string& source, const BuildOptions& opts);

/// Source to a compiled object (clCompileProgram): LLVM bitcode, so that linking optimises the
/// whole program and inlines calls across objects. `headers` are visible to #include.
BuildOutput compile_object(const std::string& source, const BuildOptions& opts, const std::vector<NamedHeader>& headers);

/// Compiled objects to an executable code object, or with `library` to one combined bitcode
/// object (clLinkProgram). A single ELF relocatable object also links into an executable.
BuildOutput link_objects(const std::vector<std::vector<uint8_t>>& objects, bool library);

/// True if `binary` is a compiled object or library (LLVM bitcode or a relocatable ELF object),
/// not an executable code object.
bool is_relocatable(const std::vector<uint8_t>& binary);

}  // namespace strobe::opencl
