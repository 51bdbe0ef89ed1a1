// Reader of the code object v2 NT_AMD_HSA_METADATA note (YAML text).
#pragma once

#include <cstdint>
#include <span>

#include "loader/metadata.h"

namespace strobe::loader {

/// Decodes the YAML descriptor of a v2 NT_AMD_HSA_METADATA note into the v3+ vocabulary
/// (snake_case value kinds, lower-case address spaces) and computes argument offsets from
/// Size/Align, which v2 metadata does not record. Throws detail::FormatError.
CodeObjectMetadata parse_yaml_metadata(std::span<const uint8_t> desc);

}  // namespace strobe::loader
