// GPUMech as a sampling method (`--sampling gpumech`, `--mode analytical`): every launch is run
// functionally once while its trace is collected, and model_launch() predicts its cycles from
// the trace, a cache-only simulation and the configuration. No launch is simulated in detail,
// so the results stay exact (the functional run writes them) and --verify checks them.
#include <algorithm>
#include <chrono>
#include <optional>
#include <cmath>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "common/error.h"
#include "sampling/common/runners.h"
#include "sampling/gpumech/launch_model.h"
#include "sampling/gpumech/params.h"
#include "sampling/method.h"
#include "sampling/profile/functional_profile.h"
#include "timing/gpu/gpu.h"

namespace strobe::sampling {

namespace {

using namespace gpumech;
namespace sp = profile;

/// The model's policy: the one named, or the configured scheduler's, refused when GPUMech has
/// no model of it (strobe's oldest-first is neither RR nor GTO, §2.9.6).
Policy resolve_policy(PolicyChoice c, const timing::GpuConfig& gpu) {
  if (c == PolicyChoice::RoundRobin) return Policy::RoundRobin;
  if (c == PolicyChoice::GreedyThenOldest) return Policy::GreedyThenOldest;
  if (auto p = policy_of(gpu.scheduler)) return *p;
  throw InputError(fmt::format(
      "gpumech: the configured wave scheduler cu.scheduler={} has no GPUMech model (it models rr and gto); "
      "simulate one of those (--set cu.scheduler=rr|gto) or name the model's policy (--sampling-set policy=rr|gto)",
      gpu.scheduler));
}

/// The launch's CPI and stack as its record's `detail.cpi` carries them: cycles per wave
/// instruction on one SIMD, over `simds` SIMDs (cycles = cpi x wave instructions / simds).
nlohmann::json cpi_record(const LaunchModel& m) {
  nlohmann::json stack = nlohmann::json::object();
  for (const auto& [name, v] : named_categories(m.prediction.stack)) stack[name] = v;
  return {{"cpi", m.prediction.cpi}, {"simds", m.params.cus * m.params.simds_per_cu}, {"stack", stack}};
}

/// Every Table 8 level's CPI from the one prediction, keyed by the `level` parameter's names.
nlohmann::json level_cpis(const LaunchModel& m) {
  nlohmann::json out = nlohmann::json::object();
  for (const Level l : {Level::NaiveInterval, Level::MT, Level::MtMshr, Level::MtMshrBand})
    out[choice_name(l)] = level_cpi(m.prediction, l, m.params);
  return out;
}

/// How full the launch keeps the GPU: its work-groups against those resident at once. The
/// paper's kernels have at least 3x (§2.8); below that, start-up and tail dominate and the
/// balanced-load cycle estimate (§2.9.7) does not hold.
nlohmann::json occupancy_record(const LaunchModel& m, const timing::GpuConfig& gpu) {
  const double resident = double(m.occupancy.workgroups_per_cu) * double(gpu.num_cus);
  return {{"workgroups", m.workgroups},
          {"workgroups_per_cu", m.occupancy.workgroups_per_cu},
          {"limiter", m.occupancy.limiter},
          {"system_multiple", resident > 0 ? double(m.workgroups) / resident : 0.0}};
}

class Gpumech final : public SamplingMethod {
 public:
  explicit Gpumech(const MethodOptions& o)
      : p_(GpumechParams::from(o)),
        policy_(resolve_policy(p_.policy, o.gpu)),
        runner_([this](const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) { return run(d, mem, gpu); }),
        // A capture's profile without traces: each launch is traced as it runs, as without one.
        profile_(o.from_capture && o.profile && !has_traces(*o.profile) ? nullptr : o.profile),
        profile_path_(o.profile_path),
        skip_functional_(o.skip_functional),
        options_of_(o) {
    // Without saved traces the trace is the launch's functional run: no prediction without it.
    if (o.skip_functional && !profile_)
      throw InputError("--sampling-skip-functional: gpumech traces every launch by executing it, so its work is "
                       "always emulated (unless its traces come from a profile: strobe profile --gpumech, then "
                       "--profile FILE)");
    if (profile_) {
      kernargs_comparable_ = sp::kernargs_comparable(profile_->workload);
      for (const auto& l : profile_->launches) ids_.push_back(l.id);
    }
    options_.policy = policy_;
    options_.level = p_.level;
    options_.max_instructions = p_.max_trace_instructions;
    options_.mshr_demand = p_.mshr_demand;
    options_.dram_demand = p_.dram_demand;
    options_.rc_normalisation = p_.rc_normalisation;
  }
  runtime::DispatchRunner& runner(int) override { return runner_; }
  nlohmann::json summary() const override {
    return {{"level", choice_name(p_.level)},
            {"policy", policy_name()},
            {"mshr_demand", choice_name(p_.mshr_demand)},
            {"dram_demand", choice_name(p_.dram_demand)},
            {"rc_normalisation", choice_name(p_.rc_normalisation)},
            {"launches", launches_},
            {"from_profile", from_profile_},
            {"interval", no_interval("an analytical model's prediction, not a sample: there is no sampling "
                                     "variance, and its model error is measured against full detail instead")}};
  }

 private:
  /// Whether `p` holds a saved trace for its launches (`strobe profile --gpumech`).
  static bool has_traces(const sp::ProfileFile& p) {
    return !p.launches.empty() && p.launches.front().blobs.contains(kProfileBlob);
  }

  /// The saved trace of launch `i` when the profile holds it and the launch is the one profiled;
  /// otherwise why not (a run that leaves the profiled launch sequence is traced afresh).
  std::optional<SavedTrace> saved_trace(size_t i, const emu::Dispatch& d, const emu::GlobalMemory& mem,
                                        std::string& why) const {
    if (auto diff = departure(options_of_, i, d, mem, ids_, kernargs_comparable_, "profile " + profile_path_)) {
      why = *diff;
      return std::nullopt;
    }
    const sp::LaunchRecord& rec = profile_->launches[i];
    const auto blob = rec.blobs.find(kProfileBlob);
    if (blob == rec.blobs.end())
      throw InputError(fmt::format("profile {} has no GPUMech trace for launch {} ({}); write it with strobe profile "
                                   "--gpumech",
                                   profile_path_, i, d.kernel_name));
    return decode_saved_trace(blob->second, fmt::format("profile {} launch {}", profile_path_, i));
  }

  /// Launch `i` from its saved trace (§2.7): executed functionally unless skip-functional, then
  /// the cache-only simulation and the representative only.
  LaunchModel model_from_profile(size_t i, const emu::Dispatch& d, emu::GlobalMemory& mem, const SavedTrace& saved,
                                 const timing::GpuConfig& cfg) const {
    emu::DispatchStats stats;
    double seconds = 0;
    if (!skips_predicted(options_of_, d)) {
      const auto t0 = std::chrono::steady_clock::now();
      stats = emu::run_dispatch(d, mem);
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    } else {
      // Not executed: its counts are the profile's.
      stats.wave_instructions = saved.trace.instructions;
      stats.thread_instructions = profile_->launches[i].workgroups.sum(sp::column::kThreadInsts);
      stats.workgroups = saved.trace.workgroups;
      stats.wavefronts = saved.trace.waves.size();
    }
    LaunchModel m = model_saved_launch(d, saved, cfg, options_, fmt::format("profile {} launch {}", profile_path_, i));
    m.stats = stats;
    m.trace_seconds = seconds;  // the functional run; nothing is traced
    return m;
  }

  runtime::LaunchResult run(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) {
    const size_t i = launches_;
    std::string unprofiled;
    std::optional<SavedTrace> saved;
    if (profile_) saved = saved_trace(i, d, mem, unprofiled);
    const LaunchModel m =
        saved ? model_from_profile(i, d, mem, *saved, gpu.config()) : model_launch(d, mem, gpu.config(), options_, gpu.host_threads());
    ++launches_;
    from_profile_ += saved ? 1 : 0;
    runtime::LaunchResult r;
    r.stats = m.stats;
    // At least one cycle: a launch takes time even when the model's balanced load rounds to 0.
    const BoundedCycles b = bounded_cycles(m, gpu.config(), p_.dram_bound, p_.tail_bound);
    const uint64_t cycles = std::max<uint64_t>(1, uint64_t(std::llround(b.cycles)));
    r.timing = std::make_shared<timing::LaunchTiming>(timing::predicted_launch_timing(
        d.kernel_name, cycles, m.stats.wave_instructions, m.stats.thread_instructions, m.stats,
        gpu.config().clock_mhz));
    auto rec = std::make_shared<runtime::SampledLaunch>();
    rec->method = "gpumech";
    rec->emulated = !(saved && skips_predicted(options_of_, d));
    rec->level = "analytical";
    rec->estimated_cycles = cycles;
    rec->predicted_instructions = m.stats.wave_instructions;
    rec->detail = {{"ablation", choice_name(p_.level)},
                   {"policy", policy_name()},
                   {"predicted_cycles", m.prediction.cycles},
                   {"tail_cycles", m.prediction.tail_cycles},
                   {"dram_cycles", b.dram},
                   {"bound", b.bound},
                   {"cpi", cpi_record(m)},
                   {"level_cpi", level_cpis(m)},
                   {"occupancy", occupancy_record(m, gpu.config())},
                   {"representative_wave", m.prediction.representative.wave},
                   {"waves_per_simd", m.params.waves_per_simd()},
                   {"cus", m.params.cus},
                   {"traced_instructions", m.instructions},
                   {"trace_bytes", m.trace_bytes},
                   {"seconds", {{"trace", m.trace_seconds}, {"cache", m.cache_seconds}, {"model", m.model_seconds}}},
                   {"from_profile", saved.has_value()}};
    if (profile_ && !saved) rec->detail["unprofiled"] = unprofiled;
    r.sampling = std::move(rec);
    return r;
  }

  /// The policy the model uses, as `policy` spells it (rr or gto).
  std::string policy_name() const {
    return choice_name(policy_ == Policy::RoundRobin ? PolicyChoice::RoundRobin : PolicyChoice::GreedyThenOldest);
  }

  GpumechParams p_;
  Policy policy_;
  LaunchModelOptions options_;
  FunctionRunner runner_;
  size_t launches_ = 0;
  std::shared_ptr<const sp::ProfileFile> profile_;  ///< saved traces (--profile), or null
  std::string profile_path_;
  bool skip_functional_ = false;     ///< with a profile: predicted launches are not executed
  MethodOptions options_of_;         ///< what skips_predicted() asks (a capture's launches need not run)
  bool kernargs_comparable_ = true;  ///< whether launch identities compare kernarg hashes
  std::vector<sp::LaunchIdentity> ids_;  ///< the profile's launches, in order
  size_t from_profile_ = 0;          ///< launches modelled from a saved trace
};

std::unique_ptr<SamplingMethod> make_gpumech(const MethodOptions& o) { return std::make_unique<Gpumech>(o); }

}  // namespace

STROBE_SAMPLING_METHOD(kGpumechRegistered, "gpumech",
                       "GPUMech (MICRO'14): interval analysis of traced waves with multithreading, MSHR and DRAM "
                       "queueing; every launch predicted analytically, with a CPI stack",
                       GpumechParams::schema(), make_gpumech, true);

}  // namespace strobe::sampling
