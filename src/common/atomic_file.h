// Whole-file writes that never leave a half-written result behind.
#pragma once

#include <string>
#include <string_view>

namespace strobe {

/// Writes `content` to `path` atomically (temporary file in the same directory, then rename).
/// Throws InputError naming the path if it cannot be written.
void write_file_atomic(const std::string& path, std::string_view content);

/// Reads a whole file; throws InputError naming the path and the reason on failure.
std::string read_file(const std::string& path);

}  // namespace strobe
