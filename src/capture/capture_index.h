// The capture file's index as bytes: packed by the writer, read back by the reader with every
// field checked (capture_file.h). Internal to the capture module.
#pragma once

#include <string>
#include <string_view>

#include "capture/capture_file.h"

namespace strobe::capture {

/// `x` packed as msgpack (uncompressed), at kFormatVersion.
std::string pack_index(const CaptureIndex& x);
/// The index `doc` (msgpack) of capture `file`, every field checked: InputError naming the file
/// and the field for another format version or anything malformed.
CaptureIndex read_index(const std::string& file, std::string_view doc);

}  // namespace strobe::capture
