// Photon (Liu, Sun, Carlson, MICRO'23): online kernel, warp and basic-block sampling.
//
// Per launch: emulate a sample of warps (online analysis); if an earlier kernel has a GPU BBV
// within the threshold, predict this one from its IPC (kernel sampling). Otherwise simulate in
// detail while two detectors watch: once the basic-block types holding more than 95% of the
// sampled instructions are stable, later work-groups are emulated functionally and timed by
// their basic blocks; once the dominant warp type is stable, later work-groups take the mean
// warp time (only the dispatcher is simulated). Resident work-groups finish in detail.
//
// strobe's extension (retime_first_match): a kernel's first detailed launch may have run cold
// (nothing before it had touched its data), so the first launch that matches it is timed in
// detail too, warm, and later launches match that one instead.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "emu/executor.h"
#include "sampling/common/program_tables.h"
#include "sampling/method.h"
#include "sampling/photon/kernel_match.h"
#include "sampling/photon/observer.h"
#include "sampling/photon/online_analysis.h"
#include "sampling/photon/params.h"
#include "timing/gpu/gpu.h"

namespace strobe::sampling {

namespace {

class Photon final : public SamplingMethod, public runtime::DispatchRunner {
 public:
  explicit Photon(const MethodOptions& o) : o_(o), p_(PhotonParams::from(o)), tables_(o.gpu) {}
  runtime::DispatchRunner& runner(int) override { return *this; }
  nlohmann::json summary() const override {
    return {{"launches", launches_},
            {"levels", levels_},
            {"history", history_.size()},
            {"retimed_matches", retimed_},
            {"interval", no_interval("a prediction: each skipped launch, block or wave takes the IPC of the one "
                                     "earlier sample it matched, a single value with no spread")}};
  }

  runtime::LaunchResult run(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) override {
    const ProgramTables& t = tables_.get(*d.program);
    const uint32_t launch = launches_++;
    const OnlineAnalysis a = analyze_sample(d, mem, t.ends, p_.sample_fraction, p_.bbv_dims);
    const bool skip = skips_predicted(o_, d);
    auto rec = std::make_shared<runtime::SampledLaunch>();
    rec->method = "photon";
    rec->functional_instructions = a.sampled_instructions;
    rec->emulated = !skip;
    rec->detail = {{"sampled_workgroups", a.sampled_workgroups},
                   {"warp_types", a.types.size()},
                   {"dominant_warp_share", a.dominant_share()},
                   {"warp_imbalance", a.warp_imbalance()}};
    runtime::LaunchResult r;
    std::optional<size_t> m = p_.kernel_level ? match(a) : std::nullopt;
    std::optional<size_t> retimed;  // the cold record this detailed launch replaces
    if (m && p_.retime_first_match && history_[*m].first_of_kernel) retimed = std::exchange(m, std::nullopt);
    if (m) {
      predict_kernel(d, mem, gpu, a, history_[*m], *rec, r);
    } else {
      PhotonObserver obs(p_, o_.gpu, skip, a, t);
      obs.set_warming(warmer_for(gpu, o_.warming));
      auto lt = std::make_shared<timing::LaunchTiming>(gpu.run(d, mem, &obs));
      rec->level = obs.mode() == PhotonMode::Detailed ? "detailed" : mode_name(obs.mode());
      rec->detailed_instructions = lt->detailed_wave_instructions;
      if (!obs.balanced()) rec->detail["imbalance_fallback"] = true;
      rec->predicted_instructions = obs.predicted_instructions();
      rec->estimated_cycles = lt->cycles;
      if (obs.mode() != PhotonMode::Detailed) {
        rec->detail["switch_cycle"] = obs.switch_cycle() - (gpu.now().value() - lt->cycles);
        rec->detail["predicted_workgroups"] = obs.predicted_groups();
        rec->detail["stable_bb_share"] = obs.stable_share();
        // A launch may time groups by their blocks before it switches on to warp sampling.
        rec->detail["throughput_bound_groups"] = obs.bound_groups();
        if (obs.mode() == PhotonMode::Warp) rec->detail["warp_cycles"] = obs.warp_time();
      }
      const uint64_t insts = rec->detailed_instructions + rec->predicted_instructions;
      if (skip) lt->wave_instructions = insts;
      lt->ipc = lt->cycles ? double(insts) / double(lt->cycles) : 0.0;
      KernelRecord k{launch, d.kernel_name, a.gpu_bbv, a.warps, a.instructions_per_warp(), insts, lt->ipc};
      k.first_of_kernel = timed_kernels_.insert(d.kernel_name).second;
      if (retimed) {
        history_[*retimed].superseded = true;
        rec->detail["retimed_match"] = history_[*retimed].launch;
        ++retimed_;
      }
      history_.push_back(std::move(k));
      r.stats = lt->functional;
      r.timing = lt;
    }
    levels_[rec->level] = levels_.value(rec->level, 0) + 1;
    r.sampling = rec;
    return r;
  }

 private:
  /// The index in the history of the earlier kernel this launch can take its IPC from.
  std::optional<size_t> match(const OnlineAnalysis& a) {
    const auto m = match_kernel(history_, a.gpu_bbv, a.warps, a.instructions_per_warp(), o_.gpu.num_cus,
                                p_.kernel_distance, p_.bbv_dims, p_.kernel_size_ratio);
    if (!m) return std::nullopt;
    last_distance_ = m->distance;
    return m->index;
  }

  void predict_kernel(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu, const OnlineAnalysis& a,
                      const KernelRecord& m, runtime::SampledLaunch& rec, runtime::LaunchResult& r) {
    uint64_t insts = 0;
    if (skips_predicted(o_, d)) {
      insts = predict_instructions(m, a.instructions_per_warp(), a.warps);
    } else {
      r.stats = run_functional_launch(d, mem, gpu, o_.warming);
      insts = r.stats.wave_instructions;
    }
    const uint64_t cycles = uint64_t(std::llround(double(insts) / m.ipc));
    auto lt = std::make_shared<timing::LaunchTiming>(timing::predicted_launch_timing(
        d.kernel_name, cycles, insts, r.stats.thread_instructions, r.stats, gpu.config().clock_mhz));
    lt->ipc = m.ipc;  // the match's own, not insts / cycles after rounding
    rec.level = "kernel";
    rec.estimated_cycles = lt->cycles;
    rec.predicted_instructions = insts;
    rec.detail["matched_launch"] = m.launch;
    rec.detail["matched_kernel"] = m.kernel;
    rec.detail["matched_warps"] = m.warps;
    rec.detail["distance"] = last_distance_;
    r.timing = lt;
  }

  MethodOptions o_;
  PhotonParams p_;
  ProgramTableCache tables_;
  std::vector<KernelRecord> history_;
  std::set<std::string> timed_kernels_;  ///< kernels with a launch timed in detail
  uint32_t launches_ = 0, retimed_ = 0;
  double last_distance_ = 0;
  nlohmann::json levels_ = nlohmann::json::object();
};

std::unique_ptr<SamplingMethod> make_photon(const MethodOptions& o) { return std::make_unique<Photon>(o); }

}  // namespace

STROBE_SAMPLING_METHOD(kPhotonRegistered, "photon", "Photon (MICRO'23): online kernel, warp and basic-block sampling",
                       PhotonParams::schema(), make_photon, /*reads_profile=*/false);

}  // namespace strobe::sampling
