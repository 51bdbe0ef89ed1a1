// Whole-file writes that never leave a half-written result behind.
#pragma once

#include <string>
#include <string_view>

namespace strobe {

/// Writes `content` to `path` by the one output-file rule: a regular file (or a new one) is
/// replaced atomically (a temporary file in its directory, then rename), through a symbolic link
/// to the link's target, so the link stays a link; a FIFO or character device (a pipe,
/// /dev/null, a terminal) is written to as it is, never replaced; anything else (a directory, a
/// socket, a block device) is refused. Throws InputError naming the path and the reason.
void write_file_atomic(const std::string& path, std::string_view content);

/// The file an atomic replace of `path` writes and renames into place: `path` itself, or the
/// target of the symbolic link `path` is. Throws InputError naming `path` unless that is a
/// regular file or does not exist yet (for outputs that must be files: captures).
std::string replaced_file(const std::string& path);

/// Throws InputError naming `path` and the reason unless write_file_atomic(path, ...) could
/// write it now: a run checks its output paths before any work, so it never computes a result
/// it cannot keep. Writes nothing.
void check_output_path(const std::string& path);

/// Removes the temporary files that writes of `path` by processes no longer running left
/// (`PATH.tmp.PID`, a write killed before its rename); never another live process's. Errors are
/// ignored: the files are only litter.
void remove_stale_temporaries(const std::string& path);

/// Reads a whole file; throws InputError naming the path and the reason on failure.
std::string read_file(const std::string& path);

}  // namespace strobe
