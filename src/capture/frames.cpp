#include "capture/frames.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <span>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "capture/history.h"

#include <tbb/task_arena.h>
#include "common/error.h"
#include "emu/workgroup_threads.h"
#include "sampling/numeric/key_set.h"
#include "gfx/pipeline/renderer.h"
#include "gfx/stream/frame_file.h"
#include "timing/gfx/frame_accesses.h"

namespace strobe::capture {

namespace {

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string_view view(const std::vector<uint8_t>& b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

/// A recorded frame's history: its walk's steps in runs on `pool`'s threads, each run's accesses
/// folded apart and the runs joined (the history one walk in order gives). Sets
/// `wave_instructions` to the instructions its waves ran.
std::vector<HistoryEntry> walk_history(const timing::FrameWork& work, const FrameRecorderOptions& o,
                                       emu::HostThreads& pool, uint64_t& wave_instructions) {
  const std::vector<timing::FrameWalkStep> steps = timing::frame_walk_steps(work, o.bin_entry_bytes);
  const uint64_t runs =
      pool.threads() > 1 ? std::max<uint64_t>(1, std::min<uint64_t>(steps.size(), uint64_t(pool.threads()) * emu::kChunksPerThread))
                         : 1;
  std::vector<HistoryBuilder> parts;
  for (uint64_t c = 0; c < runs; ++c) parts.emplace_back(0, o.granule_bytes);
  std::vector<uint64_t> instructions(runs, 0);
  auto run = [&](uint64_t c, uint32_t) {
    const size_t a = steps.size() * c / runs, b = steps.size() * (c + 1) / runs;
    uint64_t seq = c << 40;  // the run's accesses numbered after every earlier run's
    instructions[c] = timing::walk_frame_steps(std::span(steps).subspan(a, b - a), o.granule_bytes,
                                               [&](const timing::WarmAccess& x) { parts[c].add(x, seq++); })
                          .wave_instructions;
  };
  if (runs == 1) {
    run(0, 0);
  } else {
    std::exception_ptr fault;
    pool.run(runs, run, &fault);
    if (fault) std::rethrow_exception(fault);
  }
  wave_instructions = 0;
  for (uint64_t c = 0; c < runs; ++c) wave_instructions += instructions[c];
  std::vector<HistoryEntry> entries;
  std::vector<const HistoryBuilder*> each;
  for (const HistoryBuilder& p : parts) each.push_back(&p);
  tbb::task_arena(int(pool.threads())).execute([&] { entries = HistoryBuilder::merged_entries(each); });
  return entries;
}

}  // namespace

CaptureIndex record_frames(const std::string& path, const std::vector<gfx::FrameRange>& ranges,
                           const FrameRecorderOptions& o, CaptureWriter& writer) {
  CaptureIndex x;
  x.kind = "frames";
  x.granule_bytes = o.granule_bytes;
  x.history_bytes = o.history_bytes;
  x.threads = o.threads;
  x.tile_size = o.tile_size;
  x.bin_entry_bytes = o.bin_entry_bytes;
  gfx::RendererOptions ro;
  ro.tile_size = int(o.tile_size);
  ro.record = true;
  ro.threads = o.threads;
  gfx::Renderer renderer(ro);
  emu::HostThreads pool(o.threads);
  gfx::FrameStream stream(path, ranges);
  const gfx::PutContent put = [&](const std::vector<uint8_t>& b) -> uint64_t {
    return writer.put(BlobKind::FrameContent, view(b));
  };
  gfx::GlFrame f;
  uint64_t index = 0;
  while (stream.next(f, index)) {
    const auto t0 = std::chrono::steady_clock::now();
    FrameRecord r;
    r.frame = index;
    r.data = writer.put(BlobKind::Frame, encode_frame(f, index, put));
    const gfx::FrameStats stats = renderer.render(f, index);
    const std::vector<uint8_t> counts = nlohmann::json::to_msgpack(gfx::to_json(stats));
    r.counts = writer.put(BlobKind::FrameCounts, view(counts));
    const std::vector<HistoryEntry> entries = walk_history(renderer.recording()->work, o, pool, r.wave_instructions);
    r.history = writer.put(BlobKind::History, encode_history(entries));
    r.history_entries = entries.size();
    r.seconds = since(t0);
    x.frames.push_back(r);
  }
  const gfx::FrameRange& last = ranges.back();
  if (last.last != UINT64_MAX && stream.frames_seen() <= last.last)
    throw InputError(fmt::format("{}: frames up to {} asked for, but the trace has {} frames", path, last.last,
                                 stream.frames_seen()));
  if (x.frames.empty()) throw InputError(fmt::format("{}: no frame to capture in the frames asked for", path));
  return x;
}

FrameReplayer::FrameReplayer(const CaptureFile& cap) : cap_(cap) {
  if (cap.index().kind != "frames")
    throw InputError(fmt::format("capture {}: a capture of launches, not of graphics frames", cap.path()));
  for (const FrameRecord& r : cap.index().frames) numbers_.push_back(r.frame);
}

size_t FrameReplayer::position(uint64_t frame) const {
  const auto it = std::lower_bound(numbers_.begin(), numbers_.end(), frame);
  if (it == numbers_.end() || *it != frame)
    throw InputError(fmt::format("capture {}: frame {} was not captured (it holds frames {}-{}, {} of them)", cap_.path(),
                                 frame, numbers_.front(), numbers_.back(), numbers_.size()));
  return size_t(it - numbers_.begin());
}

gfx::GlFrame FrameReplayer::frame(size_t i) {
  const auto t0 = std::chrono::steady_clock::now();
  const FrameRecord& r = cap_.index().frames.at(i);
  const std::string what = fmt::format("capture {}: frame {}", cap_.path(), r.frame);
  const gfx::GetContent get = [&](uint64_t id) -> gfx::Bytes {
    if (id > UINT32_MAX) throw InputError(fmt::format("content {} (corrupt file)", id));
    if (auto live = contents_[id].lock()) return live;
    const std::string b = cap_.blob(uint32_t(id), BlobKind::FrameContent);
    auto bytes = std::make_shared<const std::vector<uint8_t>>(b.begin(), b.end());
    contents_[id] = bytes;
    return bytes;
  };
  auto [index, frame] = gfx::decode_frame(cap_.blob(r.data, BlobKind::Frame), get, what);
  if (index != r.frame) throw InputError(fmt::format("{}: the frame's data is frame {} (corrupt file)", what, index));
  decode_seconds_ += since(t0);
  return std::move(frame);
}

static_assert(sizeof(HistoryEntry) == 24, "FrameReplayer::kKeptEntries' memory bound assumes 24-byte entries");

const std::vector<HistoryEntry>& FrameReplayer::history(size_t i) {
  auto it = histories_.find(i);
  if (it != histories_.end()) return it->second;
  const FrameRecord& r = cap_.index().frames.at(i);
  std::vector<HistoryEntry> h = decode_history(cap_.blob(r.history, BlobKind::History), r.history_entries,
                                               fmt::format("capture {}: frame {}", cap_.path(), r.frame));
  kept_entries_ += h.size();
  return histories_.emplace(i, std::move(h)).first->second;
}

gfx::FrameStats FrameReplayer::counts(size_t i) const {
  const FrameRecord& r = cap_.index().frames.at(i);
  const std::string b = cap_.blob(r.counts, BlobKind::FrameCounts);
  try {
    gfx::FrameStats s = gfx::frame_stats_from_json(nlohmann::json::from_msgpack(b.begin(), b.end()));
    if (s.frame != r.frame) throw InputError("they count another frame");
    return s;
  } catch (const std::exception& e) {
    throw InputError(fmt::format("capture {}: frame {}'s counts are malformed (corrupt file): {}", cap_.path(), r.frame,
                                 e.what()));
  }
}

void FrameReplayer::check(const timing::GpuConfig& cfg) const {
  const CaptureIndex& x = cap_.index();
  if (cfg.gfx_tile_size != x.tile_size)
    throw InputError(fmt::format("capture {}: its frames were recorded with {}-pixel tiles, and gfx.tile_size is {}; "
                                 "capture with --set gfx.tile_size={}",
                                 cap_.path(), x.tile_size, cfg.gfx_tile_size, cfg.gfx_tile_size));
  if (cfg.gfx_bin_entry_bytes != x.bin_entry_bytes)
    throw InputError(fmt::format("capture {}: its history lays bin lists out at {} bytes per entry, and "
                                 "gfx.bin_entry_bytes is {}; capture with --set gfx.bin_entry_bytes={}",
                                 cap_.path(), x.bin_entry_bytes, cfg.gfx_bin_entry_bytes, cfg.gfx_bin_entry_bytes));
  if (cfg.line_bytes < x.granule_bytes)
    throw InputError(fmt::format("capture {}: its history was recorded at {}-byte lines, and mem.line_bytes = {} is "
                                 "smaller; capture with --granule {} or smaller",
                                 cap_.path(), x.granule_bytes, cfg.line_bytes, cfg.line_bytes));
}

void FrameReplayer::warm(timing::Gpu& gpu, size_t from, size_t to, uint64_t max_granules) {
  if (from >= to) return;
  const auto t0 = std::chrono::steady_clock::now();
  const timing::GpuConfig& cfg = gpu.config();
  check(cfg);
  const CaptureIndex& x = cap_.index();
  const uint32_t shift = uint32_t(std::countr_zero(uint32_t(cfg.line_bytes)) - std::countr_zero(x.granule_bytes));
  uint64_t budget = std::max<uint64_t>(1, x.history_bytes / x.granule_bytes);
  if (max_granules > 0) budget = std::min(budget, max_granules);
  // Sized for the granules the frames can give, which a bound far above them does not change.
  uint64_t entries = 0;
  for (size_t j = from; j < to && entries < budget; ++j) entries += x.frames.at(j).history_entries;
  const uint64_t expected = std::min(budget, entries);
  sampling::KeySet seen(expected);
  std::vector<std::span<const HistoryEntry>> window;  // newest frame first, each its newest part
  // Decoded histories are kept for the next warm (a sampled run warms frame after frame, each
  // walk reaching back over the last one's), dropped between walks past a bound on their memory
  // (never during one: the window refers to them).
  if (kept_entries_ > kKeptEntries) {
    histories_.clear();
    kept_entries_ = 0;
  }
  // Newest first, until the bound's distinct granules are found; each frame keeps its newest part.
  for (size_t j = to; j-- > from && seen.size() < budget;) {
    const std::vector<HistoryEntry>& all = history(j);
    size_t first = all.size();
    while (first > 0 && seen.size() < budget) seen.insert(all[--first].granule);
    window.emplace_back(all.data() + first, all.size() - first);
  }
  timing::Warmer& w = gpu.warmer();
  gpu.warm_dram(true);
  struct DramOff {
    timing::Gpu& g;
    ~DramOff() { g.warm_dram(false); }
  } dram_off{gpu};
  const uint32_t cus = uint32_t(cfg.num_cus), per_array = uint32_t(cfg.cus_per_shader_array);
  const uint32_t ahead = uint32_t((cfg.ib_bytes + cfg.line_bytes - 1) / cfg.line_bytes);
  const bool store_depth = timing::choice<timing::Switch>(cfg, "gfx.store_depth") == timing::Switch::On;
  // Which uses reach an L1, newest first: a CU's L1V (or an array's scalar cache or L1I) keeps
  // only its newest lines, so the uses of its newest four times its lines of distinct lines are
  // given to it and older uses reach the L2 alone, once per line at its newest use. The L1s' tags, order and misses into the L2
  // are then those of applying every use, at a fraction of the work (a line a frame's waves
  // share would otherwise be applied once per wave that used it).
  auto lines_of = [&](double kib) { return uint64_t(4 * kib * 1024 / double(cfg.line_bytes)); };
  const uint64_t l1v_cap = lines_of(cfg.l1v_size_kb), scalar_cap = lines_of(cfg.scache_size_kb),
                 code_cap = lines_of(cfg.l1i_size_kb);
  std::vector<uint64_t> l1v_used(cus, 0);
  uint64_t scalar_used = 0, code_used = 0;
  struct Use {
    const HistoryEntry* e;
    uint64_t line;
    bool l1;  // through the L1 of its path, else straight to the L2
  };
  std::vector<Use> uses;  // newest first
  sampling::KeySet at_l2(expected), l1_lines;
  for (const std::span<const HistoryEntry> frame : window)
    for (auto it = frame.rbegin(); it != frame.rend(); ++it) {
      const HistoryEntry& e = *it;
      const uint64_t line = e.granule >> shift;
      bool l1 = false;
      // Whether this use's line is among the newest `cap` distinct lines of its cache.
      auto within = [&](uint64_t cache, uint64_t& used, uint64_t cap) {
        if (used >= cap) return false;
        if (l1_lines.insert(cache << 48 ^ line)) ++used;
        return true;
      };
      switch (timing::WarmAccess::Path(e.path)) {
        case timing::WarmAccess::L1v: l1 = within(e.group % cus, l1v_used[e.group % cus], l1v_cap); break;
        case timing::WarmAccess::Scalar: l1 = within(uint64_t(cus) + 1, scalar_used, scalar_cap); break;
        case timing::WarmAccess::L1i: l1 = within(uint64_t(cus) + 2, code_used, code_cap); break;
        case timing::WarmAccess::L2: break;
      }
      const bool newest = at_l2.insert(line);
      if (l1 || newest) uses.push_back({&e, line, l1});
    }
  for (auto it = uses.rbegin(); it != uses.rend(); ++it) {
    const HistoryEntry& e = *it->e;
    const uint64_t line = it->line;
    if (!it->l1) {
      HistoryEntry l2 = e;
      if (!store_depth && e.path == timing::WarmAccess::L2 && timing::is_depth_tile_granule(e.granule, x.granule_bytes))
        l2.flags = uint8_t(e.flags & ~kWrite);  // the pipeline does not store depth tiles here
      l2.path = timing::WarmAccess::L2;
      if (l2.flags) apply_history_entry(w, line, 0, l2);
      continue;
    }
    switch (timing::WarmAccess::Path(e.path)) {
      case timing::WarmAccess::L1v:
        // The SPI starts each frame at CU 0 and gives each wave the next CU with room: wave k's
        // lines go to CU k (modulo the CUs), as if no CU were ever full.
        apply_history_entry(w, line, e.group % cus, e);
        break;
      case timing::WarmAccess::Scalar:
        // A frame's shaders run on every CU: each shader array holds their constants ...
        for (uint32_t cu = 0; cu < cus; cu += per_array) apply_history_entry(w, line, cu, e);
        break;
      case timing::WarmAccess::L1i:
        // ... and their code, with the lines the instruction buffer fetched ahead of each.
        for (uint32_t cu = 0; cu < cus; cu += per_array)
          for (uint32_t k = 0; k <= ahead; ++k) apply_history_entry(w, line + k, cu, e);
        break;
      case timing::WarmAccess::L2: break;
    }
  }
  warm_seconds_ += since(t0);
}

}  // namespace strobe::capture
