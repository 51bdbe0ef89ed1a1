#include "gfx/stream/frame_stream.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "common/error.h"
#include "gfx/stream/frame_file.h"
#include "gfx/trace/apitrace_reader.h"

namespace strobe::gfx {

std::vector<FrameRange> parse_frame_ranges(const std::string& text, const std::string& what) {
  auto bad = [&](const std::string& why) {
    return InputError(fmt::format("{} '{}': {} (expected A-B, A, or a list of them like 0-9,20)", what, text, why));
  };
  auto number = [&](std::string_view t) {
    uint64_t v = 0;
    if (t.empty() || t.size() > 18) throw bad(fmt::format("'{}' is not a frame number", t));
    for (char ch : t) {
      if (ch < '0' || ch > '9') throw bad(fmt::format("'{}' is not a frame number", t));
      v = v * 10 + uint64_t(ch - '0');
    }
    return v;
  };
  std::vector<FrameRange> out;
  std::string_view rest = text;
  while (true) {
    const size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const size_t dash = item.find('-');
    FrameRange r;
    r.first = number(item.substr(0, dash));
    r.last = dash == std::string_view::npos ? r.first : number(item.substr(dash + 1));
    if (r.last < r.first) throw bad(fmt::format("{}-{} ends before it starts", r.first, r.last));
    if (!out.empty() && r.first <= out.back().last) throw bad("ranges must ascend without overlapping");
    out.push_back(r);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return out;
}

struct FrameStream::Impl {
  Impl(const std::string& path, std::vector<FrameRange> r) : ranges(std::move(r)) {
    if (is_frame_file(path)) {
      open_file(path);
      return;
    }
    reader.emplace(path);
    state.emplace(path);
    state->set_recording(wanted(0));
  }
  bool wanted(uint64_t frame) {
    while (next_range < ranges.size() && ranges[next_range].last < frame) ++next_range;
    return next_range < ranges.size() && ranges[next_range].first <= frame;
  }
  /// A frame file holds a window: every frame asked for must be in it (an open range, "to the
  /// end", takes what the file holds from its first frame on).
  void open_file(const std::string& path) {
    file = read_frame_file(path);
    std::vector<uint64_t> held;
    for (const auto& [i, f] : file->frames) held.push_back(i);
    for (const FrameRange& r : ranges) {
      const bool open = r.last == UINT64_MAX;
      const uint64_t first = open && !held.empty() ? std::max(r.first, held.front()) : r.first;
      const uint64_t last = open ? std::max(held.empty() ? 0 : held.back(), first) : r.last;
      for (uint64_t i = first; i <= last; ++i)
        if (!std::binary_search(held.begin(), held.end(), i))
          throw InputError(fmt::format("{}: frame {} asked for, but this frame file holds {} frames ({}-{}) of {}",
                                       path, i, held.size(), held.empty() ? 0 : held.front(),
                                       held.empty() ? 0 : held.back(), file->trace));
    }
  }
  std::optional<trace::ApitraceReader> reader;  // a trace
  std::optional<GlState> state;
  std::optional<FrameFile> file;                // or a frame file
  size_t file_pos = 0;
  std::vector<FrameRange> ranges;
  size_t next_range = 0;  // the first range not wholly behind the current frame
  uint64_t index = 0;
};

FrameStream::FrameStream(const std::string& path, std::vector<FrameRange> ranges)
    : impl_(std::make_unique<Impl>(path, std::move(ranges))) {}
FrameStream::~FrameStream() = default;

bool FrameStream::next(GlFrame& frame, uint64_t& index) {
  Impl& s = *impl_;
  if (s.ranges.empty() || s.index > s.ranges.back().last) return false;
  if (s.file) {
    while (s.file_pos < s.file->frames.size()) {
      auto& [i, f] = s.file->frames[s.file_pos++];
      s.index = i + 1;
      if (!s.wanted(i)) continue;
      frame = std::move(f);
      index = i;
      return true;
    }
    return false;
  }
  while (const trace::Call* c = s.reader->next()) {
    if (!s.state->apply(*c)) continue;
    const uint64_t ended = s.index++;
    const bool keep = s.wanted(ended);
    s.state->set_recording(s.wanted(s.index));
    GlFrame f = s.state->take_frame();
    if (!keep) continue;
    frame = std::move(f);
    index = ended;
    return true;
  }
  return false;
}

uint64_t FrameStream::frames_seen() const { return impl_->index; }

std::map<std::string, uint64_t> FrameStream::unknown_calls() const {
  return impl_->state ? impl_->state->unknown_calls() : std::map<std::string, uint64_t>{};
}

uint64_t count_frames(const std::string& path) {
  if (is_frame_file(path)) return read_frame_file(path).frames.size();
  const uint64_t never = std::numeric_limits<uint64_t>::max();  // a range no trace reaches
  FrameStream stream(path, {{never, never}});
  GlFrame frame;
  uint64_t index = 0;
  while (stream.next(frame, index)) {
  }
  return stream.frames_seen();
}

std::vector<GlFrame> read_frames(const std::string& path, uint64_t first, uint64_t last) {
  if (first > last) throw InputError(fmt::format("{}: frames {}-{}: the first is after the last", path, first, last));
  FrameStream stream(path, {FrameRange{first, last}});
  std::vector<GlFrame> out;
  GlFrame f;
  uint64_t index = 0;
  while (out.size() < last - first + 1 && stream.next(f, index)) out.push_back(std::move(f));
  if (out.size() < last - first + 1)
    throw InputError(fmt::format("{}: frames {}-{} asked for, but the trace has {} frames", path, first, last,
                                 stream.frames_seen()));
  return out;
}

}  // namespace strobe::gfx
