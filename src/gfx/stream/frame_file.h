// strobe's own frame-stream file: a window of a trace's frames with everything their draws read
// (buffer contents, programs, uniform values, textures, fixed-function state), so a frame is read
// without replaying the calls before it. Contents the frames share (a vertex buffer many draws
// read, a texture) are stored once and shared again when read. The encoding is msgpack, written
// atomically; a file of another kind, version or shape is an InputError naming it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gfx/stream/frame_stream.h"
#include "gfx/stream/gl_state.h"

namespace strobe::gfx {

/// Frames read back from a frame file, with the trace they were taken from.
struct FrameFile {
  std::string trace;                                 ///< the trace the frames came from
  std::vector<std::pair<uint64_t, GlFrame>> frames;  ///< by frame number, ascending
};

/// Writes the frames of `ranges` of the trace at `trace` to `out`; returns how many.
size_t write_frame_file(const std::string& out, const std::string& trace, const std::vector<FrameRange>& ranges);

/// Reads a frame file.
FrameFile read_frame_file(const std::string& path);

/// True if `path` starts as a frame file does (whatever the name).
bool is_frame_file(const std::string& path);

/// Stores one byte content a frame reads (a buffer's, an index list's, a texture level's) and
/// returns the number a decoder will ask for it by.
using PutContent = std::function<uint64_t(const std::vector<uint8_t>&)>;
/// The content a PutContent stored under a number; throws InputError for an unknown number.
using GetContent = std::function<Bytes(uint64_t)>;

/// One frame (number `index` of its trace) as bytes, its contents stored through `put` rather
/// than in the bytes: a workload capture keeps each content once, however many frames read it.
std::string encode_frame(const GlFrame& frame, uint64_t index, const PutContent& put);
/// Reads what encode_frame() wrote, its contents through `get`: the frame's index and the frame.
/// InputError naming `what` for malformed bytes.
std::pair<uint64_t, GlFrame> decode_frame(std::string_view bytes, const GetContent& get, const std::string& what);

}  // namespace strobe::gfx
