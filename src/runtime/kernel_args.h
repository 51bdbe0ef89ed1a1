// Kernel arguments as a host program supplies them, and their layout into the kernarg segment.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "loader/code_object.h"

namespace strobe::runtime {

/// One explicit (non-hidden) kernel argument supplied by the host.
struct ArgValue {
  enum class Kind : uint8_t { Scalar, Pointer, Local };
  Kind kind = Kind::Scalar;
  std::vector<uint8_t> bytes;   ///< Scalar: the value's bytes (little-endian)
  uint64_t pointer = 0;         ///< Pointer: device address
  uint32_t local_bytes = 0;     ///< Local: size of the dynamic __local buffer

  /// A by-value scalar of any trivially copyable type.
  template <typename T>
  static ArgValue scalar(const T& v) {
    ArgValue a;
    a.bytes.resize(sizeof(T));
    __builtin_memcpy(a.bytes.data(), &v, sizeof(T));
    return a;
  }
  /// A global buffer at device address `addr`.
  static ArgValue buffer(uint64_t addr) { ArgValue a; a.kind = Kind::Pointer; a.pointer = addr; return a; }
  /// A dynamic __local buffer of `bytes`.
  static ArgValue local(uint32_t bytes) { ArgValue a; a.kind = Kind::Local; a.local_bytes = bytes; return a; }
};

/// What the hidden arguments of a dispatch must carry.
struct HiddenArgValues {
  std::array<uint32_t, 3> grid{1, 1, 1};
  std::array<uint32_t, 3> local{1, 1, 1};
  uint32_t dims = 1;
  std::array<uint64_t, 3> global_offset{0, 0, 0};
  uint64_t queue_address = 0;
  uint32_t private_aperture_hi = 0;
  uint32_t shared_aperture_hi = 0;
  /// Group memory the launch adds past the static segment and any __local arguments (HIP's
  /// dynamic shared memory, which reaches the kernel only through the packet's group size).
  uint32_t dynamic_lds_bytes = 0;
};

/// The laid-out kernarg segment plus the dynamic LDS it implies.
struct KernargLayout {
  std::vector<uint8_t> bytes;       ///< kernarg segment contents
  uint32_t dynamic_lds_bytes = 0;   ///< total dynamic group bytes: __local arguments plus the launch's own
  uint32_t lds_total_bytes = 0;     ///< static group segment + dynamic buffers (aligned)
};

/// Builds the kernarg segment for `kernel` from the explicit `args` (in declaration order) and
/// the hidden values. Throws InputError naming the argument when count, kind or size mismatch.
KernargLayout build_kernargs(const loader::KernelInfo& kernel, const std::vector<ArgValue>& args,
                             const HiddenArgValues& hidden);

/// The kernel's explicit (non-hidden) arguments, in declaration order.
std::vector<const loader::KernelArg*> explicit_args(const loader::KernelInfo& kernel);

/// The scalar type a by-value argument's metadata declares, as "i32", "u32", "i64", "u64",
/// "f32" or "f64" (OpenCL C's and HIP's spellings of them); empty for anything else (vectors,
/// structs, pointers, a type the metadata does not name).
std::string scalar_kind(const loader::KernelArg& arg);

}  // namespace strobe::runtime
