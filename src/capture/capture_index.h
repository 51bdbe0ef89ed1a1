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
/// The kind ("benchmark", "program", "frames") of the index `doc` of capture `file`, read from
/// the document's first fields without decoding the rest (pack_index writes the format version,
/// then the kind); InputError naming the file when those fields are not there.
std::string read_kind(const std::string& file, std::string_view doc);
/// What capture `file` ends with after its blobs, whose area ends at byte `at`: the index `doc`
/// (msgpack) compressed, then the footer that finds and checks it. Written by
/// CaptureWriter::finish(); the fuzz harness seals damaged indexes with it, so that they reach
/// read_index() past the checksum.
std::string seal_index(const std::string& file, std::string_view doc, uint64_t at);
/// Where the index of the capture whose whole bytes are `bytes` begins, from its footer;
/// InputError naming `file` if the footer cannot hold it.
uint64_t index_offset(const std::string& file, std::string_view bytes);

}  // namespace strobe::capture
