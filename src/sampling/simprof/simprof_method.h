// SimProf's method class, shared by the files that define it: simprof.cpp (construction,
// profiling, phases and the first sample, registration), rounds.cpp (the rounds, their estimate
// and growth, the training a run saves) and summary.cpp (the report). See simprof.cpp for how
// the method runs.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sampling/common/runners.h"
#include "sampling/gpumech/launch_model.h"
#include "sampling/method.h"
#include "sampling/profile/functional_profile.h"
#include "sampling/profile/ranges.h"
#include "sampling/simprof/params.h"
#include "sampling/simprof/phases.h"
#include "sampling/simprof/sample_design.h"
#include "sampling/simprof/training.h"
#include "timing/gpu/gpu.h"

namespace strobe::sampling::simprof {

namespace sp = profile;

/// How the sample is chosen: SimProf or one of its baselines.
enum class Design { Stratified, Random, Code, Window };

/// What sets a design apart, in one place: the method reads these, never the design itself, so a
/// new baseline is one row of the table (simprof.cpp) and one registration.
struct DesignTraits {
  const char* name;            ///< the registered method name
  bool phases;                 ///< strata are phases of the units' code signatures (else one stratum)
  bool random;                 ///< a random sample within strata, with the take-all cold-start stratum
  bool one_per_phase;          ///< each phase's unit nearest its centre, measured once: no rounds, no interval
  bool window;                 ///< one contiguous window of units at a seeded start, grown at its ends
  /// SimProf's own allocation: min_per_phase per stratum in a fixed-size sample, the
  /// proportional floor, and the input-sensitivity workflow (training=, save_training=).
  bool simprof_allocation;
};

/// The traits of design `d`.
const DesignTraits& traits(Design d);

/// The registered name of design `d`.
inline const char* method_name(Design d) { return traits(d).name; }

/// SimProf, or one of its baselines, as a sampling method.
class SimProf final : public SamplingMethod {
 public:
  SimProf(const MethodOptions& o, Design design);
  int passes() const override { return passes_; }
  runtime::DispatchRunner& runner(int pass) override { return pass < proxy_passes_ ? proxy_pass_ : round_; }
  void end_pass(int pass) override;
  nlohmann::json summary() const override;

 private:
  /// A launch of the current round with units not measured: its time is the measured units'
  /// cycles plus the others' stratum shares, known when the round ends.
  struct Pending {
    double known = 0;            ///< cycles of its measured units
    std::vector<size_t> units;   ///< its units not measured
    std::shared_ptr<timing::LaunchTiming> timing;
    std::shared_ptr<runtime::SampledLaunch> record;
  };
  /// A sampling unit: a whole launch, or a range of its work-groups.
  struct Unit {
    size_t launch = 0;
    uint64_t first_wg = 0, end_wg = 0;  ///< a range's groups (linear ids); unused for a launch
    bool whole = true;
  };
  /// One round's outcome, for the summary.
  struct Round {
    uint64_t added = 0, sampled = 0;
    StratifiedEstimate estimate;
  };

  /// The input-sensitivity workflow's parameters, checked: SimProf's own, on GPUMech's per-unit
  /// CPI (Eq. 38's metric), and one side of it per run.
  void check_training_params() const;

  /// Whether GPUMech predicts every unit (for every design: the baselines size their samples
  /// from it too).
  bool gpumech_proxy() const { return p_.proxy == Proxy::Gpumech; }
  uint32_t line_bytes() const { return uint32_t(o_.gpu.line_bytes); }
  std::string source() const { return o_.profile ? "profile " + o_.profile_path : std::string("the profiling pass"); }
  bool has_interval() const { return !design_.one_per_phase; }

  /// Pass 0: the launch profiled (and, with the GPUMech proxy, modelled) functionally.
  runtime::LaunchResult run_proxy(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu);

  /// A run that leaves the profiled launch sequence: SimProf's population is the profiled
  /// launches, so it cannot follow.
  [[noreturn]] void not_followed(size_t i, const std::string& why) const;

  /// The units, their phases and the first sample, from the profile.
  void prepare(const std::vector<sp::LaunchRecord>& launches);

  /// Units per stratum to measure first.
  void first_sample();

  /// The spread per stratum of the proxy's cycles over all its units (0 without a proxy).
  std::vector<StratumDesign> proxy_spreads() const {
    std::vector<std::vector<size_t>> all(size_t(pop_.strata));
    for (int h = 0; h < pop_.strata; ++h) all[size_t(h)] = pop_.members(h);
    return without_reused(stratum_spreads(pop_, all, unit_proxy_, p_.estimator));
  }

  /// `d` with the reused strata emptied, so no allocation gives them a unit.
  std::vector<StratumDesign> without_reused(std::vector<StratumDesign> d) const {
    for (size_t h = 0; h < d.size(); ++h)
      if (reused_[h]) d[h] = StratumDesign{};
    return d;
  }

  /// The strata simulated afresh: their mean per unit and the relative error their estimate may
  /// have, so that with the reused phases' variance the total meets the budget.
  struct Budget {
    double mean = 0, rel_error = 0;
  };
  /// The fresh strata's budget from an estimate of the total and of the fresh strata's part.
  Budget fresh_budget(double total, double fresh) const;

  void add_units(const std::vector<size_t>& u) {
    round_units_.insert(round_units_.end(), u.begin(), u.end());
    std::sort(round_units_.begin(), round_units_.end());
  }

  /// Grows the window to `w` units: forward while it can, then backward.
  void grow_window(uint64_t w);

  /// The units measured so far, per stratum (the window: one stratum, its units).
  std::vector<std::vector<size_t>> measured_units() const;

  /// A round's launch: in detail when the round sampled it (or a range of it, the rest fast-
  /// forwarded), else functionally.
  runtime::LaunchResult run_round(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu);

  /// Runs launch `i` with its units `now` (ranges) in detail and the rest fast-forwarded, and
  /// records their cycles.
  timing::LaunchTiming measure_ranges(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu, size_t i,
                                      const std::vector<size_t>& now, runtime::SampledLaunch& rec);

  /// Work-groups of `d` resident at once on `gpu`: a GPU-full.
  static double gpu_full(const emu::Dispatch& d, timing::Gpu& gpu) {
    return double(std::max<uint32_t>(1, gpu.occupancy_of(d).workgroups_per_cu * uint32_t(gpu.config().num_cus)));
  }

  /// Whether launch `i` is one of the `warmup` launches before a unit this round measures that
  /// starts its launch.
  bool warms_a_sampled_unit(size_t i) const {
    for (uint64_t k = 1; k <= p_.warmup && i + k + 1 < launch_first_.size(); ++k)
      if (std::binary_search(round_units_.begin(), round_units_.end(), launch_first_[i + k])) return true;
    return false;
  }

  /// After a round: the estimate, then either another round or the estimates written into the
  /// round's records.
  void end_round();

  /// The estimate of total cycles from the units measured so far. The window's is the simple
  /// random sample's formula over its units, an interval the window's lack of randomness does
  /// not justify (which is the baseline's point).
  StratifiedEstimate estimate(const std::vector<std::vector<size_t>>& measured) const;
  uint64_t draw_size(int h) const { return draw_ ? draw_->size(h) : 0; }

  /// Sizes the next round from the spreads measured so far.
  void grow(const std::vector<std::vector<size_t>>& measured, const StratifiedEstimate& e);

  /// The last round: every unmeasured launch's record gets its stratum's share of the estimate.
  void finish(const std::vector<std::vector<size_t>>& measured);

  /// The training's ratio a reused phase `h` scales by (reuse_by).
  const RatioFit& reuse_fit(int h) const {
    const TrainedPhase& p = training_->phases[size_t(h)];
    return p_.reuse_by == ReuseBy::Proxy ? p.calibration : p.cpi;
  }
  /// What unit `u`'s reused cycles scale with: its predicted cycles or its wave instructions.
  double reuse_aux(size_t u) const { return p_.reuse_by == ReuseBy::Proxy ? unit_proxy_[u] : pop_.size[u]; }

  /// What this run learned, for runs on other inputs: per phase (not the cold-start stratum),
  /// its proxy-CPI moments and its measured cycles per instruction.
  Training training(const std::vector<std::vector<size_t>>& measured) const;

  MethodOptions o_;
  Params p_;
  const DesignTraits& design_;
  double z_;
  gpumech::LaunchModelOptions model_;
  FunctionRunner proxy_pass_, round_;
  int proxy_passes_ = 1;  ///< passes before the first round: 1 to profile or model, 0 with a profile and no model
  int passes_ = 2;
  int rounds_ = 0;
  std::vector<sp::LaunchRecord> profiled_;
  std::vector<sp::LaunchIdentity> ids_;
  bool kernargs_comparable_ = true;
  double proxy_seconds_ = 0;
  std::vector<double> proxy_cycles_;  ///< per launch: GPUMech's predicted cycles (0 without the proxy)
  std::vector<double> unit_proxy_, proxy_cpi_;  ///< per unit: the proxy's cycles and cycles per instruction
  std::vector<std::vector<sp::WorkGroupRange>> ranges_;  ///< per launch: its ranges from pass 0 (unit_insts)
  std::vector<Unit> units_;
  std::vector<size_t> launch_first_;  ///< per launch: its first unit; last, the unit count
  Phases phases_;
  Population pop_;
  std::optional<StratifiedDraw> draw_;
  uint64_t window_begin_ = 0, window_end_ = 0;
  uint64_t cold_ = 0;  ///< leading units in the take-all cold-start stratum (the last one)
  std::vector<size_t> round_units_;  ///< units the current round simulates in detail, sorted
  std::vector<double> y_;            ///< per unit: its measured cycles (NaN before)
  std::vector<int> measured_in_;     ///< per unit: the round that measured it (-1: none)
  std::vector<Pending> pending_;
  std::vector<Round> rounds_log_;
  std::optional<Training> training_;  ///< training= read: its phases and measurements
  std::optional<Reuse> reuse_;        ///< the training applied to this input's units
  std::vector<uint8_t> reused_;       ///< per stratum: 1 when its cycles come from the training
  std::vector<EstimatedPart> parts_;  ///< per stratum: a reused one's estimated cycles (else none)
  uint64_t eligible_ = 0;             ///< units in strata simulated here (not reused)
  size_t launch_ = 0;
  double final_total_ = 0;
};

}  // namespace strobe::sampling::simprof
