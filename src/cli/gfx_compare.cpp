#include "cli/gfx_compare.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/gfx_megsim.h"
#include "cli/report.h"
#include "common/error.h"
#include "experiment/run_spec.h"
#include "gfx/pipeline/renderer.h"
#include "gfx/stream/captured.h"
#include "sampling/megsim/frame_selection.h"
#include "sampling/megsim/params.h"
#include "timing/gpu/gpu.h"

namespace strobe::cli {

namespace mg = sampling::megsim;

namespace {

/// The statistics every estimate is made of and judged on (MEGsim's four).
constexpr std::array<const char*, 4> kStats = {"cycles", "dram_bytes", "l2_accesses", "tile_buffer_accesses"};
using Measure = std::array<double, kStats.size()>;

Measure measure(const timing::FrameTiming& t) {
  return {double(t.cycles), double(t.stats.get("dram.bytes")),
          double(t.stats.sum("l2.", ".reads") + t.stats.sum("l2.", ".writes")),
          double(t.stats.get("gfx.tile_buffer_accesses"))};
}

nlohmann::json measure_json(const Measure& m) {
  nlohmann::json j;
  for (size_t i = 0; i < kStats.size(); ++i) j[kStats[i]] = m[i];
  return j;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// Frames rendered in order and timed on one GPU.
struct Timed {
  std::map<uint64_t, Measure> by_frame;
  std::vector<uint64_t> order;
  double seconds = 0;
};

Timed render_and_time(const std::string& trace, const std::vector<gfx::FrameRange>& ranges, uint64_t warm,
                      const timing::GpuConfig& cfg, bool show, const char* what) {
  Timed t;
  const auto t0 = std::chrono::steady_clock::now();
  timing::Gpu gpu(cfg);
  gfx::RendererOptions ro;
  ro.tile_size = int(cfg.gfx_tile_size);
  ro.record = true;
  gfx::render_trace(
      trace, ranges, ro,
      [&](const gfx::FrameStats& s, const gfx::Renderer& r) {
        const timing::FrameTiming ft = gpu.run_frame(r.recording()->work);
        t.by_frame[s.frame] = measure(ft);
        t.order.push_back(s.frame);
        if (show) fmt::print(stderr, "compare: {}: frame {}: {} cycles\n", what, s.frame, ft.cycles);
      },
      warm,
      // Warm frames are timed too, unreported: their accesses leave the caches as the frames
      // before a sampled frame left them in the reference.
      [&](const gfx::FrameStats&, const gfx::Renderer& r) { gpu.run_frame(r.recording()->work); });
  t.seconds = seconds_since(t0);
  return t;
}

std::vector<gfx::FrameStats> render_counts(const std::string& trace, const std::vector<gfx::FrameRange>& ranges,
                                           int tile_size, double& seconds) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<gfx::FrameStats> counts;
  gfx::RendererOptions ro;
  ro.tile_size = tile_size;
  gfx::render_trace(trace, ranges, ro, [&](const gfx::FrameStats& s, const gfx::Renderer&) { counts.push_back(s); });
  seconds = seconds_since(t0);
  return counts;
}

std::vector<gfx::FrameRange> single_frames(std::vector<uint64_t> frames) {
  std::sort(frames.begin(), frames.end());
  std::vector<gfx::FrameRange> r;
  for (uint64_t f : frames) r.push_back({f, f});
  return r;
}

/// Each statistic's estimate against the reference's total: signed relative errors.
nlohmann::json errors_json(const Measure& estimate, const Measure& reference) {
  nlohmann::json j;
  for (size_t i = 0; i < kStats.size(); ++i)
    j[kStats[i]] = reference[i] != 0 ? (estimate[i] - reference[i]) / reference[i] : 0.0;
  return j;
}

/// How many random frames the baseline needs for MEGsim's cycle error, computed from the
/// reference's per-frame cycles (no further simulation): mean |error| over `seeds` draws for each
/// sample size from `k`, doubling, up to all frames.
nlohmann::json random_frames_needed(const std::vector<double>& cycles, size_t k, double target, uint64_t seed) {
  constexpr uint64_t kSeeds = 20;
  double total = 0;
  for (double c : cycles) total += c;
  nlohmann::json sizes = nlohmann::json::array();
  nlohmann::json needed = nullptr;
  for (size_t m = std::max<size_t>(k, 1);; m = std::min(cycles.size(), m * 2)) {
    double sum = 0;
    for (uint64_t s = 0; s < kSeeds; ++s) {
      double picked = 0;
      for (size_t row : mg::random_frames(cycles.size(), m, seed + s)) picked += cycles[row];
      const double estimate = picked * double(cycles.size()) / double(m);
      sum += std::abs(estimate - total) / total;
    }
    const double mean = sum / double(kSeeds);
    sizes.push_back({{"frames", m}, {"mean_abs_cycle_error", mean}});
    if (needed.is_null() && mean <= target) needed = m;
    if (m == cycles.size()) break;
  }
  return {{"target_abs_cycle_error", target}, {"frames_needed", needed}, {"seeds", kSeeds}, {"by_size", sizes},
          {"note", "computed from the reference's per-frame cycles: the mean over the seeds of |error| of the "
                   "random estimate with that many frames"}};
}

}  // namespace

int compare_graphics(const GraphicsCompareOptions& o) {
  bool megsim = false, random = false;
  for (const std::string& m : o.methods) {
    if (m == "megsim") megsim = true;
    else if (m == "random-frames") random = true;
    else
      throw InputError(fmt::format("--sampling {} for a graphics workload: expected megsim and/or random-frames", m));
  }
  if (random && !megsim)
    throw InputError("--sampling random-frames: the baseline draws as many frames as MEGsim chooses; compare it with "
                     "megsim (--sampling megsim,random-frames)");
  const mg::Params params = mg::params_from(o.sampling_sets);  // bad keys fail before anything runs
  const auto warm_ranges = gfx::parse_frame_ranges(o.warm_frames, "--warm-frames");
  if (warm_ranges.size() != 1 || warm_ranges[0].first != warm_ranges[0].last)
    throw InputError(fmt::format("--warm-frames '{}': expected a number of frames", o.warm_frames));
  const uint64_t warm = warm_ranges[0].first;
  const timing::GpuConfig cfg = experiment::resolve_gpu_config(o.arch, o.sets);
  const std::string trace = gfx::resolve_trace(o.workload);
  const std::vector<gfx::FrameRange> asked =
      o.frames.empty() ? std::vector<gfx::FrameRange>{{0, std::numeric_limits<uint64_t>::max()}}
                       : gfx::parse_frame_ranges(o.frames, "--frames");
  const bool show = o.progress || ::isatty(STDERR_FILENO);

  // The reference: every frame in order, each timed after the one before it.
  const Timed ref = render_and_time(trace, asked, 0, cfg, show, "full detail");
  const size_t n = ref.order.size();
  if (n < 2) throw InputError(fmt::format("compare {}: {} frame; frame sampling needs at least 2", o.workload, n));
  Measure ref_total{};
  std::vector<double> ref_cycles;
  nlohmann::json per_frame = nlohmann::json::array();
  for (uint64_t f : ref.order) {
    const Measure& m = ref.by_frame.at(f);
    for (size_t i = 0; i < kStats.size(); ++i) ref_total[i] += m[i];
    ref_cycles.push_back(m[0]);
    nlohmann::json j = measure_json(m);
    j["frame"] = f;
    per_frame.push_back(std::move(j));
  }
  nlohmann::json out{{"workload", o.workload},
                     {"trace", trace},
                     {"config", timing::to_json(cfg)},
                     {"frames", n},
                     {"warm_frames", warm},
                     {"reference", {{"seconds", ref.seconds}, {"totals", measure_json(ref_total)}, {"per_frame", per_frame}}},
                     {"methods", nlohmann::json::object()}};
  std::string text = fmt::format("{}: {} frames in full detail: {:.0f} cycles, {:.2f} s\n", o.workload, n,
                                 ref_total[0], ref.seconds);

  // MEGsim: its own functional pass over every frame, the selection, its representatives in detail.
  mg::FrameSelection sel;
  if (megsim) {
    double profile_s = 0;
    const std::vector<gfx::FrameStats> counts = render_counts(trace, asked, int(cfg.gfx_tile_size), profile_s);
    if (counts.size() != n)
      throw InputError(fmt::format("compare {}: the functional pass rendered {} frames, the reference {}", o.workload,
                                   counts.size(), n));
    const auto s0 = std::chrono::steady_clock::now();
    std::string selection_text;
    nlohmann::json m = megsim_selection(counts, o.sampling_sets, selection_text, &sel);
    const double select_s = seconds_since(s0);
    std::vector<uint64_t> reps;
    for (const mg::FrameCluster& c : sel.clusters) reps.push_back(counts[c.representative].frame);
    const Timed rt = render_and_time(trace, single_frames(reps), warm, cfg, show, "megsim");
    Measure estimate{}, from_reference{};
    for (const mg::FrameCluster& c : sel.clusters) {
      const uint64_t f = counts[c.representative].frame;
      for (size_t i = 0; i < kStats.size(); ++i) {
        estimate[i] += double(c.members.size()) * rt.by_frame.at(f)[i];
        from_reference[i] += double(c.members.size()) * ref.by_frame.at(f)[i];
      }
    }
    const double total_s = profile_s + select_s + rt.seconds;
    m["estimate"] = measure_json(estimate);
    m["errors"] = errors_json(estimate, ref_total);
    m["estimate_from_reference_frames"] = measure_json(from_reference);
    m["errors_from_reference_frames"] = errors_json(from_reference, ref_total);
    m["frames_simulated"] = reps.size();
    m["seconds"] = {{"functional_profile", profile_s}, {"selection", select_s}, {"detailed", rt.seconds},
                    {"total", total_s}};
    m["speedup"] = ref.seconds / total_s;
    m["speedup_detailed_only"] = ref.seconds / rt.seconds;
    m.erase("estimate_note");
    const double err = m["errors"]["cycles"].get<double>();
    text += fmt::format("megsim: {} of {} frames in detail ({:.1f}x fewer): cycles {:.0f} ({:+.2f}%), DRAM bytes "
                        "{:+.2f}%, L2 accesses {:+.2f}%, tile-buffer accesses {:+.2f}%; {:.2f} s ({:.2f}x, "
                        "profiling {:.2f} s included)\n",
                        reps.size(), n, double(n) / double(reps.size()), estimate[0], 100 * err,
                        100 * m["errors"]["dram_bytes"].get<double>(), 100 * m["errors"]["l2_accesses"].get<double>(),
                        100 * m["errors"]["tile_buffer_accesses"].get<double>(), total_s, ref.seconds / total_s,
                        profile_s);
    out["methods"]["megsim"] = std::move(m);
  }

  // The random baseline: as many frames, drawn from the same seed, each standing for n / k.
  if (random) {
    const size_t k = sel.clusters.size();
    std::vector<uint64_t> picked;
    for (size_t row : mg::random_frames(n, k, params.seed)) picked.push_back(ref.order[row]);
    const Timed rt = render_and_time(trace, single_frames(picked), warm, cfg, show, "random-frames");
    Measure estimate{};
    for (uint64_t f : picked)
      for (size_t i = 0; i < kStats.size(); ++i) estimate[i] += rt.by_frame.at(f)[i] * double(n) / double(k);
    const double megsim_err = std::abs(out["methods"]["megsim"]["errors"]["cycles"].get<double>());
    nlohmann::json r{{"method", "random-frames"},
                     {"frames_simulated", k},
                     {"representative_frames", picked},
                     {"estimate", measure_json(estimate)},
                     {"errors", errors_json(estimate, ref_total)},
                     {"seconds", {{"detailed", rt.seconds}, {"total", rt.seconds}}},
                     {"speedup", ref.seconds / rt.seconds},
                     {"frames_for_megsim_error", random_frames_needed(ref_cycles, k, megsim_err, params.seed)}};
    const double err = r["errors"]["cycles"].get<double>();
    const nlohmann::json& needed = r["frames_for_megsim_error"]["frames_needed"];
    text += fmt::format("random-frames: {} frames in detail: cycles {:.0f} ({:+.2f}%); {:.2f} s ({:.2f}x); MEGsim's "
                        "cycle error needs {} random frames on average\n",
                        k, estimate[0], 100 * err, rt.seconds, ref.seconds / rt.seconds,
                        needed.is_null() ? std::string("more than all") : std::to_string(needed.get<size_t>()));
    out["methods"]["random-frames"] = std::move(r);
  }
  if (o.json == "-") {
    fmt::print("{}\n", out.dump(2));
    return 0;
  }
  if (!o.json.empty()) write_output(o.json, out.dump(2) + "\n");
  fmt::print("{}", text);
  return 0;
}

}  // namespace strobe::cli
