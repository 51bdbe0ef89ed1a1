// Parsing of `strobe launch` argument specs (DESIGN.md §5) and grid/size lists.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "loader/code_object.h"

namespace strobe::cli {

/// One `--arg SPEC` as the user wrote it, parsed but not yet materialised on a device.
struct ArgSpec {
  enum class Kind { File, Zeros, Local, Scalar };
  Kind kind = Kind::Scalar;
  std::string text;                 ///< the spec as given, for error messages
  std::string path;                 ///< File: the initialising file
  uint64_t bytes = 0;               ///< Zeros/Local: size
  std::vector<uint8_t> value;       ///< Scalar: little-endian bytes (4 or 8)
  std::string scalar;               ///< Scalar: its kind as spelled ("i32", "u32", ... "f64")
};

/// Throws InputError when scalar `a`, the kernel's argument number `index`, does not have the
/// type the kernel's metadata declares for `arg` (a float given for a `uint`, a signed value
/// for an unsigned one) and the same size; another size, and arguments of other types (vectors,
/// structs), are left to the runtime's size check.
void check_scalar_type(const ArgSpec& a, const loader::KernelArg& arg, size_t index);

/// Parses one SPEC (`buf:PATH`, `zeros:BYTES`, `local:BYTES`, `i32:V`, `u32:V`, `i64:V`,
/// `u64:V`, `f32:V`, `f64:V`); throws InputError naming the spec and the problem.
ArgSpec parse_arg_spec(const std::string& spec);

/// Parses "X[,Y[,Z]]" into three positive sizes (missing ones are 1); `what` names the option.
/// `dims` receives the number of values given.
std::array<uint32_t, 3> parse_dims(const std::string& text, const std::string& what, uint32_t* dims = nullptr);

/// Parses a non-negative integer (decimal or 0x hex) that must fit in `max`; throws InputError.
uint64_t parse_uint(const std::string& text, const std::string& what, uint64_t max);

}  // namespace strobe::cli
