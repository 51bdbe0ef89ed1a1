// Internal error type and bounds-checked byte access shared by the loader's parsers.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace strobe::loader::detail {

static_assert(std::endian::native == std::endian::little,
              "the loader reads little-endian ELF fields with memcpy");

/// A malformed code object. The parsers throw this without the file name;
/// CodeObject::parse turns it into one strobe::InputError that names the file.
class FormatError : public std::runtime_error {
 public:
  explicit FormatError(const std::string& what) : std::runtime_error(what) {}
};

/// Throws FormatError with a fmt-formatted message.
template <typename... Args>
[[noreturn]] void fail(fmt::format_string<Args...> f, Args&&... args) {
  throw FormatError(fmt::format(f, std::forward<Args>(args)...));
}

/// True if [offset, offset+size) lies inside [0, total), computed without overflow.
constexpr bool in_bounds(uint64_t offset, uint64_t size, uint64_t total) {
  return offset <= total && size <= total - offset;
}

/// Reads a little-endian T at `offset` of `bytes`; throws FormatError naming `what` if it does not fit.
template <typename T>
T read_le(std::span<const uint8_t> bytes, uint64_t offset, const char* what) {
  if (!in_bounds(offset, sizeof(T), bytes.size()))
    fail("{} at offset {:#x} lies beyond the end of its {}-byte region", what, offset, bytes.size());
  T v;
  std::memcpy(&v, bytes.data() + offset, sizeof(T));
  return v;
}

}  // namespace strobe::loader::detail
