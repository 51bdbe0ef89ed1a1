// Reader of the code object v3+ NT_AMDGPU_METADATA note (a msgpack map).
#pragma once

#include <cstdint>
#include <span>

#include "loader/metadata.h"

namespace strobe::loader {

/// Decodes the msgpack descriptor of an NT_AMDGPU_METADATA note. Throws detail::FormatError on
/// malformed msgpack, wrong value types, or missing required keys.
CodeObjectMetadata parse_msgpack_metadata(std::span<const uint8_t> desc);

}  // namespace strobe::loader
