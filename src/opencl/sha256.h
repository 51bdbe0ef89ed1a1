// SHA-256 (FIPS 180-4), for content-addressed program cache keys.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace strobe::opencl {

/// Incremental SHA-256.
class Sha256 {
 public:
  Sha256();
  /// Appends bytes.
  Sha256& update(std::string_view bytes);
  /// Appends a length-prefixed field, so concatenated fields cannot alias each other.
  Sha256& field(std::string_view bytes);
  /// The digest as 64 lower-case hex digits (the object is finished afterwards).
  std::string hex();

 private:
  void block(const uint8_t* p);
  std::array<uint32_t, 8> h_;
  std::array<uint8_t, 64> buf_{};
  size_t used_ = 0;
  uint64_t total_ = 0;
};

/// SHA-256 of `bytes` as hex.
std::string sha256_hex(std::string_view bytes);

}  // namespace strobe::opencl
