#include "cli/gfx_compare.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/gfx_megsim.h"
#include "cli/gfx_statistics.h"
#include "cli/report.h"
#include "common/atomic_file.h"
#include "common/cpu_clock.h"
#include "common/error.h"
#include "experiment/run_spec.h"
#include "gfx/pipeline/renderer.h"
#include "gfx/stream/captured.h"
#include "gfx/stream/frame_stream.h"
#include "sampling/megsim/frame_selection.h"
#include "sampling/megsim/params.h"
#include "sampling/megsim/stratified_frames.h"
#include "timing/gpu/gpu.h"

namespace strobe::cli {

namespace mg = sampling::megsim;

namespace {

using Measure = FrameMeasure;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// Frames rendered in order and timed on one GPU.
struct Timed {
  std::map<uint64_t, Measure> by_frame;
  std::map<uint64_t, mg::StageActivity> activity;  ///< by frame
  std::vector<uint64_t> order;
  double seconds = 0;      ///< wall clock
  double cpu_seconds = 0;  ///< the process's CPU time
};

Timed render_and_time(const std::string& trace, const std::vector<gfx::FrameRange>& ranges, uint64_t warm,
                      const timing::GpuConfig& cfg, bool show, const char* what) {
  Timed t;
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = process_cpu_seconds();
  timing::Gpu gpu(cfg);
  gfx::RendererOptions ro;
  ro.tile_size = int(cfg.gfx_tile_size);
  ro.record = true;
  gfx::render_trace(
      trace, ranges, ro,
      [&](const gfx::FrameStats& s, const gfx::Renderer& r) {
        const timing::FrameTiming ft = gpu.run_frame(r.recording()->work);
        t.by_frame[s.frame] = frame_measure(ft);
        t.activity[s.frame] = frame_activity(ft, s);
        t.order.push_back(s.frame);
        if (show) fmt::print(stderr, "compare: {}: frame {}: {} cycles\n", what, s.frame, ft.cycles);
      },
      warm,
      // Warm frames are timed too, unreported: their accesses leave the caches as the frames
      // before a sampled frame left them in the reference.
      [&](const gfx::FrameStats&, const gfx::Renderer& r) { gpu.run_frame(r.recording()->work); });
  t.seconds = seconds_since(t0);
  t.cpu_seconds = process_cpu_seconds() - cpu0;
  return t;
}

/// MEGsim's profiling pass: every frame rendered functionally for its counts.
struct Profile {
  std::vector<gfx::FrameStats> counts;
  double seconds = 0, cpu_seconds = 0;
};

Profile render_counts(const std::string& trace, const std::vector<gfx::FrameRange>& ranges, int tile_size) {
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = process_cpu_seconds();
  Profile p;
  gfx::RendererOptions ro;
  ro.tile_size = tile_size;
  gfx::render_trace(trace, ranges, ro, [&](const gfx::FrameStats& s, const gfx::Renderer&) { p.counts.push_back(s); });
  p.seconds = seconds_since(t0);
  p.cpu_seconds = process_cpu_seconds() - cpu0;
  return p;
}

bool asked_for(const std::vector<gfx::FrameRange>& asked, uint64_t frame) {
  return std::any_of(asked.begin(), asked.end(),
                     [&](const gfx::FrameRange& r) { return r.first <= frame && frame <= r.last; });
}

/// The frames of earlier runs' JSON files (`strobe run gfx:... --json`) that `asked` covers, each
/// once, with no gaps between the first and the last of each range, and in `mode`; `use` takes
/// each frame's JSON. `sources` gets each file with the frames it gave. InputError names the
/// file and what is wrong with it.
void read_runs(const std::vector<std::string>& files, const std::string& option, const std::string& trace,
               const std::string& mode, const std::vector<gfx::FrameRange>& asked, const nlohmann::json* config,
               int tile_size, nlohmann::json& sources, const std::function<void(const nlohmann::json&)>& use) {
  std::vector<uint64_t> seen;
  for (const std::string& file : files) {
    nlohmann::json in;
    try {
      in = nlohmann::json::parse(read_file(file));
    } catch (const nlohmann::json::exception& e) {
      throw InputError(fmt::format("{} {}: not JSON ({})", option, file, e.what()));
    }
    if (!in.is_object() || !in.contains("frames") || !in["frames"].is_array())
      throw InputError(fmt::format("{} {}: not the JSON of strobe run gfx:... --json", option, file));
    if (in.value("trace", "") != trace)
      throw InputError(fmt::format("{} {}: its frames are of {}, not {}", option, file, in.value("trace", ""), trace));
    if (in.value("mode", "") != mode)
      throw InputError(fmt::format("{} {}: a --mode {} run; this needs --mode {}", option, file, in.value("mode", ""), mode));
    if (config && in.value("config", nlohmann::json()) != *config) {
      const nlohmann::json patch = nlohmann::json::diff(in.value("config", nlohmann::json()), *config);
      throw InputError(fmt::format("{} {}: timed on another GPU configuration ({} differs)", option, file,
                                   patch.empty() ? std::string("?") : patch[0].value("path", std::string("?"))));
    }
    // Pixel waves are packed tile by tile, so the counts depend on the tile size (a run that
    // does not say rendered with the renderer's default, 16).
    if (in.value("tile_size", gfx::RendererOptions{}.tile_size) != tile_size)
      throw InputError(fmt::format("{} {}: rendered with {}-pixel tiles, this comparison's GPU uses {}", option, file,
                                   in.value("tile_size", gfx::RendererOptions{}.tile_size), tile_size));
    uint64_t first = 0, last = 0, used = 0;
    try {
      for (const nlohmann::json& f : in["frames"]) {
        const uint64_t frame = f.at("frame").get<uint64_t>();
        if (!asked_for(asked, frame)) continue;
        use(f);
        if (used++ == 0) first = frame;
        last = frame;
        seen.push_back(frame);
      }
    } catch (const nlohmann::json::exception& e) {
      throw InputError(fmt::format("{} {}: a frame is malformed ({})", option, file, e.what()));
    }
    sources.push_back({{"file", file}, {"frames", used}, {"first", first}, {"last", last},
                       {"warm_frames", in.value("warm_frames", nlohmann::json())}});
  }
  std::sort(seen.begin(), seen.end());
  for (size_t i = 1; i < seen.size(); ++i)
    if (seen[i] == seen[i - 1]) throw InputError(fmt::format("{}: frame {} is in two files", option, seen[i]));
  // Every frame compared must be there: to the trace's end where a range is open.
  uint64_t frames = std::numeric_limits<uint64_t>::max();
  for (const gfx::FrameRange& r : asked) {
    if (r.last == std::numeric_limits<uint64_t>::max() && frames == std::numeric_limits<uint64_t>::max())
      frames = gfx::count_frames(trace);
    const uint64_t last = std::min(r.last, frames - 1);
    for (uint64_t f = r.first; f <= last; ++f)
      if (!std::binary_search(seen.begin(), seen.end(), f))
        throw InputError(fmt::format("{}: frame {} is in none of the files", option, f));
  }
}

/// The reference from earlier timing runs: each frame's statistics, and its rendering and timing
/// seconds (wall clock and CPU) as the run measured them.
Timed reference_from_runs(const std::vector<std::string>& files, const std::string& trace,
                          const std::vector<gfx::FrameRange>& asked, const nlohmann::json& config,
                          nlohmann::json& sources) {
  Timed t;
  read_runs(files, "--reference-runs", trace, "timing", asked, &config, config.at("gfx").at("tile_size").get<int>(), sources,
            [&](const nlohmann::json& f) {
    const nlohmann::json& timing = f.at("timing");
    t.by_frame[f.at("frame").get<uint64_t>()] = frame_measure_from_json(timing.at("statistics"));
    t.seconds += f.at("seconds").get<double>() + timing.at("seconds").get<double>();
    t.cpu_seconds += f.value("cpu_seconds", 0.0) + timing.value("cpu_seconds", 0.0);
  });
  for (const auto& [frame, m] : t.by_frame) t.order.push_back(frame);
  return t;
}

/// MEGsim's counts from earlier functional runs, with their rendering seconds as the profile's.
Profile profile_from_runs(const std::vector<std::string>& files, const std::string& trace,
                          const std::vector<gfx::FrameRange>& asked, int tile_size, nlohmann::json& sources) {
  Profile p;
  read_runs(files, "--profile-runs", trace, "functional", asked, nullptr, tile_size, sources, [&](const nlohmann::json& f) {
    p.counts.push_back(gfx::frame_stats_from_json(f));
    p.seconds += p.counts.back().seconds;
    p.cpu_seconds += p.counts.back().cpu_seconds;
  });
  std::sort(p.counts.begin(), p.counts.end(),
            [](const gfx::FrameStats& a, const gfx::FrameStats& b) { return a.frame < b.frame; });
  return p;
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
  for (size_t i = 0; i < kFrameStatistics.size(); ++i)
    j[kFrameStatistics[i]] = reference[i] != 0 ? (estimate[i] - reference[i]) / reference[i] : 0.0;
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

/// Seconds a method has spent so far: wall clock and the process's CPU time.
struct Cost {
  double seconds = 0, cpu_seconds = 0;
};

/// MEGsim's selection from `sets` over `counts`, then `time` run on its representatives; the
/// selection's JSON rides in the result's `selection`, and `cost` grows by both steps.
template <typename TimeFrames>
auto select_and_time(const std::vector<gfx::FrameStats>& counts, const std::vector<std::string>& sets,
                     mg::FrameSelection& sel, Cost& cost, TimeFrames time) {
  struct Result : Timed {
    nlohmann::json selection;
  } r;
  const auto s0 = std::chrono::steady_clock::now();
  const double cpu0 = process_cpu_seconds();
  std::string selection_text;
  r.selection = megsim_selection(counts, sets, selection_text, &sel);
  const double select_s = seconds_since(s0), select_cpu = process_cpu_seconds() - cpu0;
  r.selection["seconds"] = {{"selection", select_s}};
  r.selection["cpu_seconds"] = {{"selection", select_cpu}};
  std::vector<uint64_t> reps;
  for (const mg::FrameCluster& c : sel.clusters) reps.push_back(counts[c.representative].frame);
  Timed t = time(reps);
  r.selection["seconds"]["detailed"] = t.seconds;
  r.selection["cpu_seconds"]["detailed"] = t.cpu_seconds;
  cost.seconds += select_s + t.seconds;
  cost.cpu_seconds += select_cpu + t.cpu_seconds;
  static_cast<Timed&>(r) = std::move(t);
  return r;
}

/// Fills a frame-sampling method's JSON: its estimate (each representative's statistics as
/// `timed` measured them, times its cluster's size), the same from the reference's own timing of
/// those frames, errors, frames simulated, costs and speedups.
void finish_method(nlohmann::json& m, const mg::FrameSelection& sel, const std::vector<gfx::FrameStats>& counts,
                   const Timed& timed, const Timed& ref, const Measure& ref_total, const Cost& cost) {
  Measure estimate{}, from_reference{};
  for (const mg::FrameCluster& c : sel.clusters) {
    const uint64_t f = counts[c.representative].frame;
    for (size_t i = 0; i < estimate.size(); ++i) {
      estimate[i] += double(c.members.size()) * timed.by_frame.at(f)[i];
      from_reference[i] += double(c.members.size()) * ref.by_frame.at(f)[i];
    }
  }
  m["estimate"] = to_json(estimate);
  m["errors"] = errors_json(estimate, ref_total);
  m["estimate_from_reference_frames"] = to_json(from_reference);
  m["errors_from_reference_frames"] = errors_json(from_reference, ref_total);
  m["frames_simulated"] = sel.clusters.size();
  m["seconds"]["total"] = cost.seconds;
  m["cpu_seconds"]["total"] = cost.cpu_seconds;
  m["speedup"] = ref.seconds / cost.seconds;
  m["speedup_detailed_only"] = ref.seconds / m["seconds"]["detailed"].get<double>();
  m["speedup_cpu"] = cost.cpu_seconds > 0 ? ref.cpu_seconds / cost.cpu_seconds : 0.0;
  m.erase("estimate_note");
}

/// The line `strobe compare` prints for a frame-sampling method.
std::string method_line(const char* name, const nlohmann::json& m, size_t n, double profile_s) {
  const auto err = [&](const char* stat) { return 100 * m["errors"][stat].get<double>(); };
  const size_t k = m["frames_simulated"];
  return fmt::format("{}: {} of {} frames in detail ({:.1f}x fewer): cycles {:.0f} ({:+.2f}%), DRAM bytes {:+.2f}%, "
                     "L2 accesses {:+.2f}%, tile-buffer accesses {:+.2f}%; {:.2f} s ({:.2f}x, profiling {:.2f} s "
                     "included)\n",
                     name, k, n, double(n) / double(k), m["estimate"]["cycles"].get<double>(), err("cycles"),
                     err("dram_bytes"), err("l2_accesses"), err("tile_buffer_accesses"), m["seconds"]["total"].get<double>(),
                     m["speedup"].get<double>(), profile_s);
}

/// megsim-stratified: about `strata_frames` frames drawn at random over MEGsim's clusters
/// (Neyman-allocated by each cluster's spread of functional work), timed, and each statistic's
/// total estimated with a Student t interval. Its costs are MEGsim's profiling and selection
/// (`megsim`'s JSON) and its own frames' timing.
template <typename TimeFrames>
nlohmann::json stratified_method(const std::vector<gfx::FrameStats>& counts, const mg::FrameSelection& sel,
                                 const mg::Params& p, TimeFrames time, const Timed& ref, const Measure& ref_total,
                                 const Cost& profiling, const nlohmann::json& megsim) {
  // The proxy: each frame's shader work, texture-weighted, as MEGsim's features count it.
  std::vector<double> proxy;
  for (const gfx::FrameStats& s : counts) {
    const mg::FrameWork w = megsim_frame_work(s);
    double total = 0;
    for (const auto& [name, v] : w.vertex) total += v;
    for (const auto& [name, v] : w.pixel) total += v;
    proxy.push_back(total);
  }
  const uint64_t n = p.strata_frames > 0 ? uint64_t(p.strata_frames) : 2 * sel.clusters.size();
  const mg::StratifiedFrames d = mg::draw_stratified_frames(sel, proxy, n, p.seed);
  std::vector<uint64_t> frames;
  for (const auto& rows : d.rows)
    for (size_t r : rows) frames.push_back(counts[r].frame);
  std::sort(frames.begin(), frames.end());
  const Timed t = time(frames);
  Measure estimate{};
  nlohmann::json intervals;
  std::string estimator;
  for (size_t i = 0; i < estimate.size(); ++i) {
    const mg::StratifiedTotal st = mg::estimate_stratified_total(
        sel, d, proxy, [&](size_t row) { return t.by_frame.at(counts[row].frame)[i]; }, p.confidence);
    estimate[i] = st.estimate.total;
    estimator = st.estimator;
    const double truth = ref_total[i];
    intervals[kFrameStatistics[i]] = {{"total", st.estimate.total},
                                      {"standard_error", st.estimate.total_se},
                                      {"half_width", st.estimate.half_width},
                                      {"relative_half_width", st.estimate.rel_error},
                                      {"df", std::isfinite(st.estimate.df) ? nlohmann::json(st.estimate.df) : nullptr},
                                      {"covers_full_detail", std::abs(truth - st.estimate.total) <= st.estimate.half_width}};
  }
  const Cost cost{profiling.seconds + megsim["seconds"]["selection"].get<double>() + t.seconds,
                  profiling.cpu_seconds + megsim["cpu_seconds"]["selection"].get<double>() + t.cpu_seconds};
  nlohmann::json per_cluster = nlohmann::json::array();
  for (size_t h = 0; h < d.rows.size(); ++h) {
    nlohmann::json drawn = nlohmann::json::array();
    for (size_t r : d.rows[h]) drawn.push_back(counts[r].frame);
    per_cluster.push_back({{"size", sel.clusters[h].members.size()}, {"proxy_sd", d.proxy_sd[h]}, {"frames", drawn}});
  }
  const auto& c = intervals["cycles"];
  nlohmann::json m{{"method", "megsim-stratified"},
                   {"strata", "megsim's clusters"},
                   {"allocation", "Neyman by each cluster's spread of functional shader work, at least 2 per cluster"},
                   {"estimator", estimator},
                   {"confidence", p.confidence},
                   {"seed", p.seed},
                   {"clusters", per_cluster},
                   {"representative_frames", frames},
                   {"frames_simulated", frames.size()},
                   {"estimate", to_json(estimate)},
                   {"errors", errors_json(estimate, ref_total)},
                   {"intervals", intervals},
                   {"interval",
                    {{"kind", "confidence"},
                     {"text", fmt::format("megsim-stratified: cycles = {:.0f} ± {:.0f} ({:.0f}% CI, {} estimator, {} "
                                          "frames over {} clusters); full detail {:.0f} is {}",
                                          c["total"].get<double>(), c["half_width"].get<double>(), 100 * p.confidence,
                                          estimator, frames.size(), sel.clusters.size(), ref_total[0],
                                          c["covers_full_detail"].get<bool>() ? "inside" : "outside")}}},
                   {"seconds", {{"functional_profile", profiling.seconds},
                                {"selection", megsim["seconds"]["selection"]},
                                {"detailed", t.seconds},
                                {"total", cost.seconds}}},
                   {"cpu_seconds", {{"functional_profile", profiling.cpu_seconds},
                                    {"selection", megsim["cpu_seconds"]["selection"]},
                                    {"detailed", t.cpu_seconds},
                                    {"total", cost.cpu_seconds}}},
                   {"speedup", ref.seconds / cost.seconds},
                   {"speedup_detailed_only", t.seconds > 0 ? ref.seconds / t.seconds : 0.0},
                   {"speedup_cpu", cost.cpu_seconds > 0 ? ref.cpu_seconds / cost.cpu_seconds : 0.0}};
  return m;
}

/// megsim-activity: MEGsim with its stage weights from strobe's own activity instead of the
/// paper's power shares. The activity of MEGsim's representatives (`first`, as `megsim`'s
/// selection `sel` timed them), each scaled by its cluster's size, is the whole sequence's
/// estimate; MEGsim selects again with those weights and `time`s only the representatives the
/// first selection did not time. Its costs include the first selection's, which measured the
/// activity: `cost` is MEGsim's so far, and grows by the second selection.
template <typename TimeFrames>
nlohmann::json activity_method(const std::vector<gfx::FrameStats>& counts, const mg::FrameSelection& sel,
                               const Timed& first, const std::vector<std::string>& sampling_sets, Cost cost,
                               TimeFrames time, const Timed& ref, const Measure& ref_total, const Cost& profiling,
                               const nlohmann::json& megsim) {
  mg::StageActivity a;
  for (const mg::FrameCluster& c : sel.clusters) {
    const mg::StageActivity& r = first.activity.at(counts[c.representative].frame);
    const double size = double(c.members.size());
    a.geometry += size * r.geometry, a.raster += size * r.raster, a.tiling += size * r.tiling;
  }
  const mg::StageWeights w = mg::weights_from_activity(a);
  std::vector<std::string> sets = sampling_sets;
  sets.push_back(fmt::format("geometry_weight={:.17g}", w.geometry));
  sets.push_back(fmt::format("raster_weight={:.17g}", w.raster));
  sets.push_back(fmt::format("tiling_weight={:.17g}", w.tiling));
  mg::FrameSelection second;
  auto timed = select_and_time(counts, sets, second, cost, [&](const std::vector<uint64_t>& reps) {
    std::vector<uint64_t> fresh;
    for (uint64_t f : reps)
      if (!first.by_frame.count(f)) fresh.push_back(f);
    Timed t = fresh.empty() ? Timed{} : time(fresh);
    for (const auto& [f, v] : first.by_frame) t.by_frame.emplace(f, v);
    return t;
  });
  nlohmann::json m = std::move(timed.selection);
  m["method"] = "megsim-activity";
  for (const char* clock : {"seconds", "cpu_seconds"})
    for (const char* step : {"selection", "detailed"})
      m[clock][step] = m[clock][step].get<double>() + megsim[clock][step].get<double>();
  finish_method(m, second, counts, timed, ref, ref_total, cost);
  m["seconds"]["functional_profile"] = profiling.seconds;
  m["cpu_seconds"]["functional_profile"] = profiling.cpu_seconds;
  m["frames_simulated"] = timed.by_frame.size();  // every frame either selection timed
  m["activity"] = {{"geometry", a.geometry}, {"raster", a.raster}, {"tiling", a.tiling},
                   {"unit", "busy unit-cycles: 4 SIMD cycles per vertex or pixel shader wave instruction; "
                            "rasteriser and blender busy cycles; setup and tiler busy cycles"},
                   {"from", "megsim's representatives, each scaled by its cluster's size"}};
  return m;
}

}  // namespace

int compare_graphics(const GraphicsCompareOptions& o) {
  bool megsim = false, activity = false, stratified = false, random = false;
  for (const std::string& m : o.methods) {
    if (m == "megsim") megsim = true;
    else if (m == "megsim-activity") activity = true;
    else if (m == "megsim-stratified") stratified = true;
    else if (m == "random-frames") random = true;
    else
      throw InputError(fmt::format(
          "--sampling {} for a graphics workload: expected megsim, megsim-activity, megsim-stratified and/or "
          "random-frames",
          m));
  }
  if (random && !megsim)
    throw InputError("--sampling random-frames: the baseline draws as many frames as MEGsim chooses; compare it with "
                     "megsim (--sampling megsim,random-frames)");
  if (activity && !megsim)
    throw InputError("--sampling megsim-activity: its stage weights come from the activity of MEGsim's "
                     "representatives; compare it with megsim (--sampling megsim,megsim-activity)");
  if (stratified && !megsim)
    throw InputError("--sampling megsim-stratified: its strata are MEGsim's clusters; compare it with megsim "
                     "(--sampling megsim,megsim-stratified)");
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

  // The reference: every frame in order, each timed after the one before it; or earlier timing
  // runs' frames, for a workload too long for one process (each run's first frames start from
  // the state its --warm-frames left, not from every frame before them).
  const nlohmann::json config = timing::to_json(cfg);
  nlohmann::json ref_sources = nlohmann::json::array();
  const Timed ref = o.reference_runs.empty() ? render_and_time(trace, asked, 0, cfg, show, "full detail")
                                             : reference_from_runs(o.reference_runs, trace, asked, config, ref_sources);
  const size_t n = ref.order.size();
  if (n < 2) throw InputError(fmt::format("compare {}: {} frame; frame sampling needs at least 2", o.workload, n));
  Measure ref_total{};
  std::vector<double> ref_cycles;
  nlohmann::json per_frame = nlohmann::json::array();
  for (uint64_t f : ref.order) {
    const Measure& m = ref.by_frame.at(f);
    for (size_t i = 0; i < m.size(); ++i) ref_total[i] += m[i];
    ref_cycles.push_back(m[0]);
    nlohmann::json j = to_json(m);
    j["frame"] = f;
    per_frame.push_back(std::move(j));
  }
  nlohmann::json out{{"workload", o.workload},
                     {"trace", trace},
                     {"config", config},
                     {"frames", n},
                     {"warm_frames", warm},
                     {"reference", {{"seconds", ref.seconds},
                                    {"cpu_seconds", ref.cpu_seconds},
                                    {"source", o.reference_runs.empty() ? nlohmann::json("simulated in this process")
                                                                        : nlohmann::json{{"runs", ref_sources}}},
                                    {"totals", to_json(ref_total)},
                                    {"per_frame", per_frame}}},
                     {"methods", nlohmann::json::object()}};
  std::string text = fmt::format("{}: {} frames in full detail: {:.0f} cycles, {:.2f} s ({:.2f} CPU s){}\n", o.workload,
                                 n, ref_total[0], ref.seconds, ref.cpu_seconds,
                                 o.reference_runs.empty() ? std::string()
                                                          : fmt::format(", from {} runs", o.reference_runs.size()));

  // MEGsim: its own functional pass over every frame, the selection, its representatives in detail.
  mg::FrameSelection sel;
  if (megsim) {
    nlohmann::json profile_sources = nlohmann::json::array();
    const Profile profile = o.profile_runs.empty()
                                ? render_counts(trace, asked, int(cfg.gfx_tile_size))
                                : profile_from_runs(o.profile_runs, trace, asked, int(cfg.gfx_tile_size), profile_sources);
    const std::vector<gfx::FrameStats>& counts = profile.counts;
    for (size_t i = 0; i < counts.size() && i < n; ++i)
      if (counts[i].frame != ref.order[i])
        throw InputError(fmt::format("compare {}: the functional pass's frame {} is the reference's frame {}",
                                     o.workload, counts[i].frame, ref.order[i]));
    if (counts.size() != n)
      throw InputError(fmt::format("compare {}: the functional pass rendered {} frames, the reference {}", o.workload,
                                   counts.size(), n));
    Cost cost{profile.seconds, profile.cpu_seconds};
    const Cost profiling = cost;
    auto timed = select_and_time(counts, o.sampling_sets, sel, cost, [&](const std::vector<uint64_t>& reps) {
      return render_and_time(trace, single_frames(reps), warm, cfg, show, "megsim");
    });
    nlohmann::json m = std::move(timed.selection);
    finish_method(m, sel, counts, timed, ref, ref_total, cost);
    m["seconds"]["functional_profile"] = profiling.seconds;
    m["cpu_seconds"]["functional_profile"] = profiling.cpu_seconds;
    if (!o.profile_runs.empty()) m["profile_source"] = {{"runs", profile_sources}};
    text += method_line("megsim", m, n, profiling.seconds);
    out["methods"]["megsim"] = std::move(m);

    // MEGsim's clusters as strata of a random sample: an estimate with a confidence interval.
    if (stratified) {
      nlohmann::json m3 = stratified_method(counts, sel, params, [&](const std::vector<uint64_t>& frames) {
        return render_and_time(trace, single_frames(frames), warm, cfg, show, "megsim-stratified");
      }, ref, ref_total, profiling, out["methods"]["megsim"]);
      text += method_line("megsim-stratified", m3, n, profiling.seconds);
      text += m3["interval"]["text"].get<std::string>() + "\n";
      out["methods"]["megsim-stratified"] = std::move(m3);
    }

    // MEGsim with its stage weights from strobe's own activity instead of the paper's power
    // shares: the activity of MEGsim's representatives, each scaled by its cluster's size, is
    // the whole sequence's estimate. Frames the first selection timed are not timed again.
    if (activity) {
      nlohmann::json m2 = activity_method(counts, sel, timed, o.sampling_sets, cost, [&](const std::vector<uint64_t>& frames) {
        return render_and_time(trace, single_frames(frames), warm, cfg, show, "megsim-activity");
      }, ref, ref_total, profiling, out["methods"]["megsim"]);
      const auto& w = m2["parameters"]["weights"];
      text += fmt::format("megsim-activity: stage weights from strobe's activity: geometry {:.3f}, raster {:.3f}, "
                          "tiling {:.3f} (the paper's: 0.108, 0.745, 0.147)\n",
                          w["geometry"].get<double>(), w["raster"].get<double>(), w["tiling"].get<double>());
      text += method_line("megsim-activity", m2, n, profiling.seconds);
      out["methods"]["megsim-activity"] = std::move(m2);
    }
  }

  // The random baseline: as many frames, drawn from the same seed, each standing for n / k.
  if (random) {
    const size_t k = sel.clusters.size();
    std::vector<uint64_t> picked;
    for (size_t row : mg::random_frames(n, k, params.seed)) picked.push_back(ref.order[row]);
    const Timed rt = render_and_time(trace, single_frames(picked), warm, cfg, show, "random-frames");
    Measure estimate{};
    for (uint64_t f : picked)
      for (size_t i = 0; i < estimate.size(); ++i) estimate[i] += rt.by_frame.at(f)[i] * double(n) / double(k);
    const double megsim_err = std::abs(out["methods"]["megsim"]["errors"]["cycles"].get<double>());
    nlohmann::json r{{"method", "random-frames"},
                     {"frames_simulated", k},
                     {"representative_frames", picked},
                     {"estimate", to_json(estimate)},
                     {"errors", errors_json(estimate, ref_total)},
                     {"seconds", {{"detailed", rt.seconds}, {"total", rt.seconds}}},
                     {"cpu_seconds", {{"detailed", rt.cpu_seconds}, {"total", rt.cpu_seconds}}},
                     {"speedup", ref.seconds / rt.seconds},
                     {"speedup_cpu", rt.cpu_seconds > 0 ? ref.cpu_seconds / rt.cpu_seconds : 0.0},
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
