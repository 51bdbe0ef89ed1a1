// Writing strobe's own msgpack documents (profiles, captures): the few packer calls msgpack-cxx
// spells out by hand, written once.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include <msgpack.hpp>

namespace strobe {

/// The packer every document of strobe's is written with.
using MsgpackPacker = msgpack::packer<msgpack::sbuffer>;

/// Packs `s` as a msgpack string.
inline void pack_str(MsgpackPacker& pk, std::string_view s) {
  pk.pack_str(uint32_t(s.size()));
  pk.pack_str_body(s.data(), uint32_t(s.size()));
}

/// Packs `s` as msgpack binary.
inline void pack_bin(MsgpackPacker& pk, std::string_view s) {
  pk.pack_bin(uint32_t(s.size()));
  pk.pack_bin_body(s.data(), uint32_t(s.size()));
}

/// Packs a three-dimensional size (a grid, a work-group) as an array of three.
inline void pack_dim3(MsgpackPacker& pk, const std::array<uint32_t, 3>& d) {
  pk.pack_array(3);
  for (uint32_t v : d) pk.pack(v);
}

}  // namespace strobe
