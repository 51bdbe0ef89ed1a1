#include "gfx/pipeline/renderer.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <type_traits>
#include <variant>

#include <fmt/format.h>

#include "common/cpu_clock.h"
#include "common/error.h"
#include "emu/memory.h"

namespace strobe::gfx {

Renderer::Renderer(RendererOptions o) : options_(o) {
  if (o.tile_size < 1) throw InputError(fmt::format("a tile size of {} pixels (at least 1)", o.tile_size));
  cx_.pipelines = &pipelines_;
  cx_.textures = &textures_;
  cx_.surfaces = &surfaces_;
  cx_.tile_size = o.tile_size;
  cx_.threads = std::max(1u, o.threads);
  if (cx_.threads > 1) cx_.pool = std::make_unique<emu::HostThreads>(cx_.threads);
  cx_.shading_slots.resize(cx_.threads);
}

Renderer::~Renderer() = default;

FrameStats Renderer::render(const GlFrame& frame, uint64_t index) {
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = process_cpu_seconds();
  FrameStats st;
  st.frame = index;
  // The frame's own device memory: vertex data, uniforms, descriptor tables and textures. A
  // recording keeps it, since the timing model re-runs the frame's waves against it.
  recording_.reset();
  std::unique_ptr<emu::GlobalMemory> mem = std::make_unique<emu::GlobalMemory>();
  cx_.mem = mem.get();
  if (options_.record) {
    recording_ = std::make_unique<FrameRecording>();
    recording_->work.frame = index;
    recording_->work.tile_size = uint32_t(options_.tile_size);
    recording_->memory = std::move(mem);  // owned with the executors made in it, whatever happens
  }
  cx_.recording = recording_.get();
  cx_.stats = &st;
  cx_.placed.clear();
  textures_.new_frame();
  for (const auto& op : frame.ops)
    std::visit(
        [&](const auto& o) {
          using Op = std::decay_t<decltype(o)>;
          if constexpr (std::is_same_v<Op, GlDraw>) execute_draw(o, cx_);
          else if constexpr (std::is_same_v<Op, GlClear>) execute_clear(o, cx_);
          else {
            execute_blit(o, cx_);
            if (recording_) recording_->end_pass();  // blits are not timed; they end the pass
          }
        },
        op);
  cx_.mem = nullptr;
  cx_.stats = nullptr;
  cx_.recording = nullptr;
  st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  st.cpu_seconds = process_cpu_seconds() - cpu0;
  return st;
}

std::vector<FrameRange> with_warm_frames(const std::vector<FrameRange>& ranges, uint64_t warm_frames) {
  std::vector<FrameRange> out;
  for (const FrameRange& r : ranges) {
    const uint64_t first = r.first > warm_frames ? r.first - warm_frames : 0;
    if (!out.empty() && first <= out.back().last + 1) out.back().last = r.last;
    else out.push_back({first, r.last});
  }
  return out;
}

void render_trace(const std::string& path, const std::vector<FrameRange>& ranges, const RendererOptions& options,
                  const std::function<void(const FrameStats&, const Renderer&)>& on_frame, uint64_t warm_frames,
                  const std::function<void(const FrameStats&, const Renderer&)>& on_warm_frame) {
  if (ranges.empty()) return;
  FrameStream stream(path, with_warm_frames(ranges, warm_frames));
  Renderer renderer(options);
  GlFrame frame;
  uint64_t index = 0;
  size_t at = 0;  // the first range not wholly before `index`
  while (stream.next(frame, index)) {
    const FrameStats s = renderer.render(frame, index);
    while (at < ranges.size() && ranges[at].last < index) ++at;
    if (at < ranges.size() && ranges[at].first <= index) on_frame(s, renderer);
    else if (on_warm_frame) on_warm_frame(s, renderer);
  }
  // Calls no reader knows changed nothing strobe follows: said once, so a frame that renders
  // wrongly can be traced to them.
  if (const auto unknown = stream.unknown_calls(); !unknown.empty()) {
    std::string list;
    for (const auto& [name, n] : unknown) list += fmt::format("{}{} ({})", list.empty() ? "" : ", ", name, n);
    fmt::print(stderr, "strobe: warning: {}: calls the GL call table does not know were skipped: {}\n", path, list);
  }
  const FrameRange& last = ranges.back();
  if (stream.frames_seen() > last.last) return;
  if (last.last == std::numeric_limits<uint64_t>::max() && stream.frames_seen() > last.first) return;  // to the end
  throw InputError(fmt::format("{}: frames up to {} asked for, but the trace has {} frames", path,
                               last.last == std::numeric_limits<uint64_t>::max() ? last.first : last.last,
                               stream.frames_seen()));
}

}  // namespace strobe::gfx
