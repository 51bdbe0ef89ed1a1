// SimProf (Huang, dissertation ch. 5) as a sampling method, `simprof`, and its baselines
// `simprof-srs`, `simprof-code` and `simprof-window` (METHODS.md §3.4). The sampling units
// (METHODS.md §3.8) are kernel launches and, with unit_insts, ranges of consecutive work-groups
// of about that many wave instructions inside the launches larger than it.
//
// Pass 0 profiles every launch functionally: its basic-block vector (and each range's), its wave
// instructions and, with proxy=gpumech, GPUMech's predicted cycles (from the same functional
// run's trace; a range takes its launch's pro rata). A `--profile` file replaces the profiling
// of launch units; with proxy=gpumech pass 0 still runs, modelling each launch from the file's
// saved trace. Phases are then formed (phases.h) and the first sample drawn (sample_design.h).
// Each later pass is a round: every launch runs functionally except the round's newly sampled
// units, which run in full detail (a range with the rest of its launch fast-forwarded,
// range_observer.h). After a round the estimate of total cycles and its interval are computed
// from every unit measured so far; when the interval is wider than the error budget, the sample
// grows (Neyman allocation from the measured spreads) and another round runs, until the budget
// is met or every unit has been simulated. The last round's launch records carry the estimate:
// the sum over the launch's units of a measured unit's cycles, any other's stratum share.
//
// Each unit is measured once, in the round that sampled it, with the caches as the launches
// before it left them (warmed by functional work with --sampling-warming caches). Checking the
// interval after every round is a sequential design: its coverage is measured, not assumed
// (scripts/eval-simprof).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/error.h"
#include "emu/executor.h"
#include "sampling/common/runners.h"
#include "sampling/gpumech/launch_model.h"
#include "sampling/gpumech/model_inputs.h"
#include "sampling/method.h"
#include "sampling/numeric/mix.h"
#include "sampling/profile/functional_profile.h"
#include "sampling/simprof/params.h"
#include "sampling/simprof/phases.h"
#include "sampling/simprof/range_observer.h"
#include "sampling/simprof/sample_design.h"
#include "timing/gpu/gpu.h"

namespace strobe::sampling {

namespace {

using namespace simprof;
namespace sp = profile;

/// How the sample is chosen: SimProf or one of its baselines.
enum class Design { Stratified, Random, Code, Window };

const char* method_name(Design d) {
  switch (d) {
    case Design::Stratified: return "simprof";
    case Design::Random: return "simprof-srs";
    case Design::Code: return "simprof-code";
    case Design::Window: return "simprof-window";
  }
  return "simprof";
}

/// The window's next length: what the formula asks, at least a quarter more, at most every unit.
uint64_t window_growth_target(uint64_t current, uint64_t formula, uint64_t population) {
  return std::min<uint64_t>(population, std::max<uint64_t>(formula, current + std::max<uint64_t>(1, current / 4)));
}

class SimProf final : public SamplingMethod {
 public:
  SimProf(const MethodOptions& o, Design design)
      : o_(o),
        p_(Params::from(o)),
        design_(design),
        z_(z_for_confidence(p_.confidence)),
        proxy_pass_([this](const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) { return run_proxy(d, mem, gpu); }),
        round_([this](const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) { return run_round(d, mem, gpu); }) {
    // The model's policy: the configured scheduler's where GPUMech models it, else GTO, the
    // closest to strobe's oldest-first; Eq. 26 per W, its better-measured reading (docs/gpumech.md).
    model_.policy = gpumech::policy_of(o.gpu.scheduler).value_or(gpumech::Policy::GreedyThenOldest);
    model_.rc_normalisation = gpumech::RcNormalisation::PerW;
    if (o_.profile && p_.unit_insts > 0)
      throw InputError(fmt::format("{}: unit_insts={} cuts launches into work-group ranges while profiling, and a "
                                   "profile file holds no per-range basic-block vectors; run without --profile",
                                   method_name(design_), p_.unit_insts));
    if (o_.profile) {
      kernargs_comparable_ = sp::kernargs_comparable(o_.profile->workload);
      for (const auto& l : o_.profile->launches) ids_.push_back(l.id);
    }
    // A profile and no model to run: the sample is drawn before the first pass.
    if (o_.profile && !gpumech_proxy()) {
      proxy_passes_ = 0;
      prepare(o_.profile->launches);
    }
    passes_ = proxy_passes_ + 1;
  }
  int passes() const override { return passes_; }
  runtime::DispatchRunner& runner(int pass) override { return pass < proxy_passes_ ? proxy_pass_ : round_; }
  void end_pass(int pass) override {
    if (pass < proxy_passes_) {
      prepare(o_.profile ? o_.profile->launches : profiled_);
      return;
    }
    end_round();
  }
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

  /// Whether GPUMech predicts every unit (for every design: the baselines size their samples
  /// from it too).
  bool gpumech_proxy() const { return p_.proxy == Proxy::Gpumech; }
  uint32_t line_bytes() const { return uint32_t(o_.gpu.line_bytes); }
  std::string source() const { return o_.profile ? "profile " + o_.profile_path : std::string("the profiling pass"); }
  bool has_interval() const { return design_ != Design::Code; }

  /// Pass 0: the launch profiled (and, with the GPUMech proxy, modelled) functionally.
  runtime::LaunchResult run_proxy(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) {
    runtime::LaunchResult r;
    const auto t0 = std::chrono::steady_clock::now();
    const size_t i = proxy_cycles_.size();
    if (o_.profile) {
      if (auto diff = sp::departure_from_profile(i, sp::identify(d, mem), ids_, kernargs_comparable_, source()))
        not_followed(i, *diff);
      const sp::LaunchRecord& rec = o_.profile->launches[i];
      const auto blob = rec.blobs.find(gpumech::kProfileBlob);
      if (blob == rec.blobs.end())
        throw InputError(fmt::format("{}: {} has no GPUMech trace for launch {} ({}), which proxy=gpumech needs; write "
                                     "it with strobe profile --gpumech, or use --sampling-set proxy=pilot",
                                     method_name(design_), source(), i, d.kernel_name));
      const std::string where = fmt::format("{} launch {}", source(), i);
      const gpumech::SavedTrace saved = gpumech::decode_saved_trace(blob->second, where);
      proxy_cycles_.push_back(gpumech::model_saved_launch(d, saved, gpu.config(), model_, where).prediction.cycles);
      r.stats = emu::run_dispatch(d, mem);
    } else {
      std::optional<sp::RangeCutter> cut;
      // A range spans several GPU-fulls of groups: in fewer, its groups run alongside its
      // neighbours' for most of their lives, and the cycles it adds are not its own.
      if (p_.unit_insts > 0)
        cut.emplace(*d.program, p_.unit_insts, uint64_t(std::ceil(p_.range_min_fulls * gpu_full(d, gpu))));
      sp::RangeCutter* ranges = cut ? &*cut : nullptr;
      if (gpumech_proxy()) {
        sp::LaunchRecord rec = sp::begin_record(d, mem);
        const gpumech::SavedTrace saved =
            gpumech::trace_for_profile(d, mem, gpu.config(), model_.max_instructions, r.stats, &rec, ranges);
        const std::string where = fmt::format("launch {}", i);
        proxy_cycles_.push_back(gpumech::model_saved_launch(d, saved, gpu.config(), model_, where).prediction.cycles);
        profiled_.push_back(std::move(rec));
      } else {
        profiled_.push_back(sp::profile_launch(d, mem, line_bytes(), r.stats, ranges));
        proxy_cycles_.push_back(0);
      }
      ranges_.push_back(cut ? cut->take() : std::vector<sp::WorkGroupRange>{});
    }
    proxy_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.sampling = profile_record(method_name(design_), r.stats.wave_instructions);
    return r;
  }

  /// A run that leaves the profiled launch sequence: SimProf's population is the profiled
  /// launches, so it cannot follow.
  [[noreturn]] void not_followed(size_t i, const std::string& why) const {
    throw NotImplementedError(fmt::format(
        "{} over a launch sequence that depends on timing: launch {} is not the profiled one ({}); the population "
        "of units is fixed by the profile",
        method_name(design_), i, why));
  }

  /// The units, their phases and the first sample, from the profile.
  void prepare(const std::vector<sp::LaunchRecord>& launches) {
    ids_.clear();
    for (const auto& l : launches) ids_.push_back(l.id);
    if (proxy_cycles_.size() != launches.size()) proxy_cycles_.assign(launches.size(), 0);
    // The units: a launch cut into several ranges gives one unit per range, any other launch one.
    units_.clear();
    launch_first_.assign(1, 0);
    const bool phased = design_ == Design::Stratified || design_ == Design::Code;
    std::vector<UnitCode> code;  // the signatures' input, for the designs that form phases
    std::vector<double> unit_proxy;
    pop_.size.clear();
    for (size_t i = 0; i < launches.size(); ++i) {
      const double insts = double(launches[i].workgroups.sum(sp::column::kWaveInsts));
      const std::vector<sp::WorkGroupRange>* cut = i < ranges_.size() && ranges_[i].size() > 1 ? &ranges_[i] : nullptr;
      if (cut) {
        for (const sp::WorkGroupRange& r : *cut) {
          units_.push_back({i, r.first_wg, r.end_wg, false});
          code.push_back({launches[i].id.kernel, r.start_pc, r.block_insts});
          pop_.size.push_back(double(r.wave_insts));
          // A range's proxy: its launch's prediction pro rata its wave instructions.
          unit_proxy.push_back(insts > 0 ? proxy_cycles_[i] * double(r.wave_insts) / insts : 0);
        }
      } else {
        units_.push_back({i, 0, launches[i].workgroups.rows, true});
        if (phased) code.push_back(launch_code(launches[i], i, source()));
        pop_.size.push_back(insts);
        unit_proxy.push_back(proxy_cycles_[i]);
      }
      launch_first_.push_back(units_.size());
    }
    const size_t n = units_.size();
    unit_proxy_ = std::move(unit_proxy);
    proxy_cpi_.resize(n);
    for (size_t i = 0; i < n; ++i) proxy_cpi_[i] = pop_.size[i] > 0 ? unit_proxy_[i] / pop_.size[i] : 0;
    y_.assign(n, std::numeric_limits<double>::quiet_NaN());
    measured_in_.assign(n, -1);
    if (n == 0) {
      pop_.strata = 1;
      pop_.stratum.clear();
      return;
    }
    if (phased) {
      const Signatures sig = code_signatures(code, p_.kernel_weight);
      PhaseOptions po;
      po.features = p_.features;
      po.max_phases = p_.max_phases;
      po.silhouette_fraction = p_.silhouette_fraction;
      po.seed = p_.seed;
      po.restarts = p_.restarts;
      phases_ = form_phases(sig, gpumech_proxy() ? std::span<const double>(proxy_cpi_) : std::span<const double>(), po);
    } else {
      phases_ = Phases{};
      phases_.phase.assign(n, 0);
    }
    pop_.stratum = phases_.phase;
    pop_.strata = std::max(1, phases_.k);
    // The first units start from cold caches, unlike any other: known before any run to be
    // atypical, they form a take-all stratum (measured whole) instead of inflating their phase's
    // spread with a value its random sample rarely shows.
    cold_ = random_design() ? std::min<uint64_t>(p_.cold_start, n) : 0;
    if (cold_ > 0 && cold_ < n) {
      for (size_t i = 0; i < cold_; ++i) pop_.stratum[i] = pop_.strata;
      ++pop_.strata;
      // A phase left with no unit (every member was cold) keeps its index, empty.
    }
    draw_.emplace(pop_, p_.seed);
    first_sample();
  }

  /// Units per stratum to measure first.
  void first_sample() {
    const uint64_t n = pop_.stratum.size();
    std::vector<uint64_t> want(size_t(pop_.strata), 0);
    const uint64_t min = p_.min_per_phase;
    if (design_ == Design::Code) {
      for (size_t h = 0; h < phases_.nearest.size(); ++h) round_units_.push_back(phases_.nearest[h]);
      std::sort(round_units_.begin(), round_units_.end());
      return;
    }
    const std::vector<StratumDesign> proxy = proxy_spreads();
    if (p_.units > 0) {
      want = neyman_allocation(proxy, std::min<uint64_t>(p_.units, n), design_ == Design::Stratified ? min : 1);
    } else if (gpumech_proxy()) {
      double mean = 0;
      for (double c : unit_proxy_) mean += c;
      mean /= double(n);
      if (mean > 0) want = budget_allocation(proxy, mean, p_.error, z_, {}, min);
      for (auto& w : want) w = std::max<uint64_t>(w, min);
    } else {
      want.assign(size_t(pop_.strata), min);  // the pilot
    }
    if (design_ == Design::Window) {
      const uint64_t w = std::min<uint64_t>(n, std::max<uint64_t>(2, std::accumulate(want.begin(), want.end(), uint64_t{0})));
      // One contiguous window at a seeded start: the paper's SECOND.
      uint64_t s = p_.seed;
      window_begin_ = n > w ? splitmix64(s) % (n - w + 1) : 0;
      window_end_ = window_begin_;
      grow_window(w);
      return;
    }
    if (design_ == Design::Stratified && p_.units == 0) proportional_floor(want, pop_, p_.proportional);
    if (cold_ > 0 && cold_ < n) want[size_t(pop_.strata - 1)] = cold_;
    for (int h = 0; h < pop_.strata; ++h) add_units(draw_->grow(h, want[size_t(h)]));
  }

  /// The designs whose sample is random within strata (they get the cold-start stratum).
  bool random_design() const { return design_ == Design::Stratified || design_ == Design::Random; }

  /// The spread per stratum of the proxy's cycles over all its units (0 without a proxy).
  std::vector<StratumDesign> proxy_spreads() const {
    std::vector<std::vector<size_t>> all(size_t(pop_.strata));
    for (int h = 0; h < pop_.strata; ++h) all[size_t(h)] = pop_.members(h);
    return stratum_spreads(pop_, all, unit_proxy_, p_.estimator);
  }

  void add_units(const std::vector<size_t>& u) {
    round_units_.insert(round_units_.end(), u.begin(), u.end());
    std::sort(round_units_.begin(), round_units_.end());
  }

  /// Grows the window to `w` units: forward while it can, then backward.
  void grow_window(uint64_t w) {
    const uint64_t n = pop_.stratum.size();
    std::vector<size_t> added;
    while (window_end_ - window_begin_ < std::min(w, n)) {
      if (window_end_ < n) added.push_back(window_end_++);
      else added.push_back(--window_begin_);
    }
    add_units(added);
  }

  /// The units measured so far, per stratum (the window: one stratum, its units).
  std::vector<std::vector<size_t>> measured_units() const {
    std::vector<std::vector<size_t>> m(size_t(pop_.strata));
    for (size_t i = 0; i < measured_in_.size(); ++i)
      if (measured_in_[i] >= 0) m[size_t(pop_.stratum[i])].push_back(i);
    return m;
  }

  /// A round's launch: in detail when the round sampled it (or a range of it, the rest fast-
  /// forwarded), else functionally.
  runtime::LaunchResult run_round(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) {
    const size_t i = launch_++;
    if (auto diff = sp::departure_from_profile(i, sp::identify(d, mem), ids_, kernargs_comparable_, source()))
      not_followed(i, *diff);
    const size_t first = launch_first_[i], end = launch_first_[i + 1];
    const bool whole = end == first + 1 && units_[first].whole;
    auto rec = std::make_shared<runtime::SampledLaunch>();
    rec->method = method_name(design_);
    rec->emulated = !o_.skip_functional;
    std::vector<size_t> now;  // the launch's units this round measures
    for (size_t u = first; u < end; ++u)
      if (std::binary_search(round_units_.begin(), round_units_.end(), u)) now.push_back(u);
    runtime::LaunchResult r;
    std::shared_ptr<timing::LaunchTiming> lt;
    if (whole && (!now.empty() || warms_a_sampled_unit(i))) {
      // In detail: a unit the round measures, or a warm-up before one, run in detail so the
      // unit starts from the state a full detailed run leaves (functional warming leaves the
      // caches close to it, not equal); a warm-up's own time is not a measurement.
      lt = std::make_shared<timing::LaunchTiming>(gpu.run(d, mem));
      r.stats = lt->functional;
      rec->detailed_instructions = lt->detailed_wave_instructions;
      if (!now.empty()) y_[first] = double(lt->cycles), measured_in_[first] = rounds_;
      else rec->detail["warmup"] = true;
    } else if (!now.empty()) {
      lt = std::make_shared<timing::LaunchTiming>(measure_ranges(d, mem, gpu, i, now, *rec));
      r.stats = lt->functional;
      rec->detailed_instructions = lt->detailed_wave_instructions;
      rec->predicted_instructions = lt->functional.wave_instructions - std::min(lt->functional.wave_instructions,
                                                                               lt->detailed_wave_instructions);
    } else {
      if (!o_.skip_functional) r.stats = run_functional_launch(d, mem, gpu, o_.warming);
      uint64_t insts = 0;
      for (size_t u = first; u < end; ++u) insts += uint64_t(pop_.size[u]);
      const uint64_t ran = o_.skip_functional ? insts : r.stats.wave_instructions;
      const uint64_t threads = o_.skip_functional ? 0 : r.stats.thread_instructions;
      lt = std::make_shared<timing::LaunchTiming>(
          timing::predicted_launch_timing(d.kernel_name, 0, ran, threads, r.stats, gpu.config().clock_mhz));
      // Units simulated in detail in an earlier round: their work counted as detailed, where it
      // was spent.
      uint64_t earlier = 0;
      for (size_t u = first; u < end; ++u)
        if (measured_in_[u] >= 0) earlier += uint64_t(pop_.size[u]);
      rec->detailed_instructions = std::min(earlier, ran);
      rec->predicted_instructions = ran - rec->detailed_instructions;
    }
    // The launch's time: its measured units' cycles (now or in an earlier round) and, for the
    // rest, their strata's shares when the round ends.
    Pending p;
    nlohmann::json units = nlohmann::json::array();
    for (size_t u = first; u < end; ++u) {
      nlohmann::json j = {{"unit", u}, {"phase", phases_.phase[u]}, {"stratum", pop_.stratum[u]}};
      if (!whole) j.update({{"first_workgroup", units_[u].first_wg}, {"end_workgroup", units_[u].end_wg}});
      if (measured_in_[u] >= 0) {
        p.known += y_[u];
        j["round"] = measured_in_[u];
        if (!whole) j["cycles"] = y_[u];
      } else {
        p.units.push_back(u);
      }
      units.push_back(std::move(j));
    }
    if (whole) rec->detail.update(units[0]);
    else rec->detail["units"] = std::move(units);
    if (p.units.empty()) {
      const uint64_t cycles = uint64_t(std::llround(p.known));
      lt->set_totals(cycles, lt->wave_instructions, lt->thread_instructions, gpu.config().clock_mhz);
      rec->level = "detailed";
      rec->estimated_cycles = cycles;
    } else {  // its strata's shares, known when the round ends
      rec->level = p.units.size() < end - first ? "range" : "phase";
      p.timing = lt;
      p.record = rec;
      pending_.push_back(std::move(p));
    }
    r.timing = lt;
    r.sampling = rec;
    return r;
  }

  /// Runs launch `i` with its units `now` (ranges) in detail and the rest fast-forwarded, and
  /// records their cycles.
  timing::LaunchTiming measure_ranges(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu, size_t i,
                                      const std::vector<size_t>& now, runtime::SampledLaunch& rec) {
    const size_t first = launch_first_[i], end = launch_first_[i + 1];
    std::vector<uint64_t> bounds;
    std::vector<bool> measure;
    for (size_t u = first; u < end; ++u) {
      bounds.push_back(units_[u].first_wg);
      measure.push_back(std::binary_search(now.begin(), now.end(), u));
    }
    bounds.push_back(units_[end - 1].end_wg);
    // The warm-up and cool-down: the groups resident at once on this configuration, so many times.
    const double full = gpu_full(d, gpu);
    RangeObserver obs(std::move(bounds), measure, uint64_t(std::ceil(p_.range_warmup * full)),
                      uint64_t(std::ceil(p_.range_cooldown * full)), o_.skip_functional);
    obs.set_warming(warmer_for(gpu, o_.warming));
    timing::LaunchTiming lt = gpu.run(d, mem, &obs);
    for (size_t u : now) {
      y_[u] = double(obs.cycles(u - first));
      measured_in_[u] = rounds_;
    }
    rec.detail["warmup_workgroups"] = obs.warmup_groups();  // before and after the measured ranges
    return lt;
  }

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
  void end_round() {
    if (launch_ != ids_.size())
      not_followed(launch_, fmt::format("the run had {} launches, the profile {}", launch_, ids_.size()));
    launch_ = 0;
    round_units_.clear();
    const auto measured = measured_units();
    Round round;
    round.sampled = 0;
    for (const auto& m : measured) round.sampled += m.size();
    round.added = round.sampled - (rounds_log_.empty() ? 0 : rounds_log_.back().sampled);
    if (has_interval() && !pop_.stratum.empty()) round.estimate = estimate(measured);
    rounds_log_.push_back(round);
    ++rounds_;
    const uint64_t n = pop_.stratum.size();
    const bool fixed = p_.units > 0 || design_ == Design::Code;
    const bool met = round.estimate.rel_error <= p_.error;
    if (fixed || met || round.sampled >= n || n == 0) {
      finish(measured);
      return;
    }
    pending_.clear();  // that round's records are not the result
    grow(measured, round.estimate);
    ++passes_;
  }

  /// The estimate of total cycles from the units measured so far. The window's is the simple
  /// random sample's formula over its units, an interval the window's lack of randomness does
  /// not justify (which is the baseline's point).
  StratifiedEstimate estimate(const std::vector<std::vector<size_t>>& measured) const {
    // A stratum with one measured unit of several (a pilot of one) has no spread: treat it as
    // the paper cannot, by growing it; the estimate then has no finite interval yet.
    for (int h = 0; h < pop_.strata; ++h)
      if (measured[size_t(h)].size() == 1 && draw_size(h) > 1) {
        StratifiedEstimate e;
        e.rel_error = std::numeric_limits<double>::infinity();
        e.z = z_;
        return e;
      }
    const StratifiedEstimate e = estimate_total(pop_, measured, y_, p_.estimator, z_);
    return p_.interval == Interval::T ? with_t_interval(e, p_.confidence) : e;
  }
  uint64_t draw_size(int h) const { return draw_ ? draw_->size(h) : 0; }

  /// Sizes the next round from the spreads measured so far.
  void grow(const std::vector<std::vector<size_t>>& measured, const StratifiedEstimate& e) {
    const std::vector<StratumDesign> spreads = stratum_spreads(pop_, measured, y_, p_.estimator);
    std::vector<uint64_t> current(size_t(pop_.strata));
    uint64_t now = 0;
    for (int h = 0; h < pop_.strata; ++h) now += current[size_t(h)] = measured[size_t(h)].size();
    const double mean = e.mean > 0 ? e.mean : 1;
    std::vector<uint64_t> want = budget_allocation(spreads, mean, p_.error, z_, current, p_.min_per_phase);
    // At least a quarter more each round, so the rounds end even where the formula, fed noisy
    // spreads, keeps asking for what is already there.
    uint64_t total = std::accumulate(want.begin(), want.end(), uint64_t{0});
    const uint64_t floor = now + std::max<uint64_t>(1, now / 4);
    if (total < floor) {
      want = neyman_allocation(spreads, floor, p_.min_per_phase);
      for (size_t h = 0; h < want.size(); ++h) want[h] = std::max(want[h], current[h]);
      total = std::accumulate(want.begin(), want.end(), uint64_t{0});
    }
    if (design_ == Design::Stratified) proportional_floor(want, pop_, p_.proportional);
    if (design_ == Design::Window) {
      grow_window(window_growth_target(now, total, pop_.stratum.size()));
    } else {
      for (int h = 0; h < pop_.strata; ++h) add_units(draw_->grow(h, want[size_t(h)]));
    }
    // Every stratum already whole but the budget unmet (n - 1 spreads of a tiny stratum): take
    // the rest, which ends the rounds.
    if (round_units_.empty())
      for (size_t i = 0; i < measured_in_.size(); ++i)
        if (measured_in_[i] < 0) round_units_.push_back(i);
  }

  /// The last round: every unmeasured launch's record gets its stratum's share of the estimate.
  void finish(const std::vector<std::vector<size_t>>& measured) {
    // Per stratum: the expansion estimator's mean cycles, or the ratio estimator's cycles per
    // instruction; CODE's single unit serves both ways.
    std::vector<double> mean(size_t(pop_.strata), 0), ratio(size_t(pop_.strata), 0);
    for (int h = 0; h < pop_.strata; ++h) {
      double sy = 0, sx = 0;
      for (size_t i : measured[size_t(h)]) sy += y_[i], sx += pop_.size[i];
      const size_t k = measured[size_t(h)].size();
      mean[size_t(h)] = k ? sy / double(k) : 0;
      ratio[size_t(h)] = sx > 0 ? sy / sx : 0;
    }
    double total = 0;
    for (size_t i = 0; i < y_.size(); ++i) {
      if (measured_in_[i] >= 0) {
        total += y_[i];
        continue;
      }
      const int h = pop_.stratum[i];
      total += p_.estimator == Estimator::Ratio ? ratio[size_t(h)] * pop_.size[i] : mean[size_t(h)];
    }
    final_total_ = total;
    for (Pending& p : pending_) {
      double c = p.known;
      for (size_t u : p.units) {
        const int h = pop_.stratum[u];
        c += p_.estimator == Estimator::Ratio ? ratio[size_t(h)] * pop_.size[u] : mean[size_t(h)];
      }
      const uint64_t cycles = uint64_t(std::llround(c));
      p.timing->set_totals(cycles, p.timing->wave_instructions, p.timing->thread_instructions, o_.gpu.clock_mhz);
      p.record->estimated_cycles = cycles;
    }
    pending_.clear();
  }

  MethodOptions o_;
  Params p_;
  Design design_;
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
  size_t launch_ = 0;
  double final_total_ = 0;
};

nlohmann::json SimProf::summary() const {
  nlohmann::json s;
  const uint64_t n = pop_.stratum.size();
  s["design"] = method_name(design_);
  const size_t ranged = std::count_if(units_.begin(), units_.end(), [](const Unit& u) { return !u.whole; });
  s["units"] = {{"kind", ranged ? "launch or work-group range" : "launch"},
                {"count", n},
                {"launches", ids_.size()},
                {"ranges", ranged},
                {"unit_insts", p_.unit_insts},
                {"range_warmup", p_.range_warmup},
                {"range_cooldown", p_.range_cooldown}};
  s["proxy"] = choice_name(p_.proxy);
  s["estimator"] = choice_name(p_.estimator);
  s["seed"] = p_.seed;
  s["proxy_seconds"] = proxy_seconds_;
  s["reused_profile"] = o_.profile ? nlohmann::json{{"file", o_.profile_path}, {"seconds", o_.profile->seconds}}
                                   : nlohmann::json();
  if (design_ == Design::Stratified || design_ == Design::Code) {
    s["phases"] = {{"k", phases_.k},
                   {"silhouettes", phases_.silhouettes},
                   {"fallback", phases_.fallback},
                   {"features_kept", phases_.kept.size()},
                   {"feature_selection", phases_.selected ? "top K by |r| with GPUMech's CPI" : "none: no per-unit proxy"}};
    if (gpumech_proxy() && n > 0) {
      const Homogeneity hm = homogeneity(proxy_cpi_, phases_);
      s["phases"]["proxy_cpi_cov"] = {{"population", hm.population_cov}, {"weighted", hm.weighted_cov},
                                       {"max_phase", hm.max_phase_cov}};
    }
  }
  nlohmann::json strata = nlohmann::json::array();
  const auto measured = measured_units();
  for (int h = 0; h < pop_.strata && n > 0; ++h)
    strata.push_back({{"units", pop_.members(h).size()}, {"sampled", measured[size_t(h)].size()}});
  s["strata"] = strata;
  s["cold_start"] = cold_;
  s["warmup"] = p_.warmup;
  nlohmann::json rounds = nlohmann::json::array();
  for (const Round& r : rounds_log_) {
    nlohmann::json j = {{"added", r.added}, {"sampled", r.sampled}};
    if (has_interval()) j.update({{"cycles", r.estimate.total}, {"half_width", r.estimate.half_width},
                                  {"rel_error", std::isfinite(r.estimate.rel_error) ? nlohmann::json(r.estimate.rel_error) : nlohmann::json()},
                                  {"quantile", r.estimate.z}});
    rounds.push_back(j);
  }
  s["rounds"] = rounds;
  const uint64_t sampled = rounds_log_.empty() ? 0 : rounds_log_.back().sampled;
  s["sampled"] = sampled;
  const char* what = ranged ? "units" : "launches";
  s["cycles"] = final_total_;
  s["budget"] = {{"error", p_.error}, {"confidence", p_.confidence}, {"fixed_units", p_.units}};
  if (!rounds_log_.empty() && has_interval()) {
    const StratifiedEstimate& e = rounds_log_.back().estimate;
    const bool finite = std::isfinite(e.rel_error);
    s["interval"] = {{"cycles", e.total},
                     {"half_width", finite ? nlohmann::json(e.half_width) : nlohmann::json()},
                     {"low", finite ? nlohmann::json(e.total - e.half_width) : nlohmann::json()},
                     {"high", finite ? nlohmann::json(e.total + e.half_width) : nlohmann::json()},
                     {"rel_error", finite ? nlohmann::json(e.rel_error) : nlohmann::json()},
                     {"confidence", p_.confidence},
                     {"quantile", finite ? nlohmann::json({{"kind", choice_name(p_.interval)}, {"value", e.z},
                                                          {"df", std::isfinite(e.df) ? nlohmann::json(e.df) : nlohmann::json()}})
                                         : nlohmann::json()},
                     {"met_budget", p_.units == 0 && e.rel_error <= p_.error},
                     // The window is one contiguous block: its interval treats it as a random
                     // sample, which it is not.
                     {"valid", design_ != Design::Window},
                     {"variance_from", "the units simulated in detail"},
                     {"text", finite ? fmt::format("cycles = {:.0f} ± {:.0f} ({:g}% CI; {} of {} {} in detail{})",
                                                   e.total, e.half_width, 100 * p_.confidence, sampled, n, what,
                                                   design_ == Design::Window ? "; a window, not a random sample" : "")
                                     : fmt::format("cycles = {:.0f}, no interval ({} of {} {} in detail)", e.total,
                                                   sampled, n, what)}};
  } else {
    s["interval"] = {{"text", fmt::format("cycles = {:.0f}: one launch per phase, no variance to give an interval "
                                          "({} of {} {} in detail)",
                                          final_total_, sampled, n, what)}};
  }
  s["allocation_spread_from"] = p_.units == 0 && gpumech_proxy() ? "GPUMech's predicted cycles of every unit"
                                                                : "the units simulated in detail (pilot rounds)";
  return s;
}

std::unique_ptr<SamplingMethod> make_simprof(const MethodOptions& o) { return std::make_unique<SimProf>(o, Design::Stratified); }
std::unique_ptr<SamplingMethod> make_srs(const MethodOptions& o) { return std::make_unique<SimProf>(o, Design::Random); }
std::unique_ptr<SamplingMethod> make_code(const MethodOptions& o) { return std::make_unique<SimProf>(o, Design::Code); }
std::unique_ptr<SamplingMethod> make_window(const MethodOptions& o) { return std::make_unique<SimProf>(o, Design::Window); }

}  // namespace

STROBE_SAMPLING_METHOD(kSimProfRegistered, "simprof",
                       "SimProf (Huang's dissertation, ch. 5): launches in phases of their basic-block vectors, a "
                       "Neyman-allocated stratified random sample grown to an error budget, cycles with a confidence "
                       "interval",
                       Params::schema(), make_simprof, true);
STROBE_SAMPLING_METHOD(kSimProfSrsRegistered, "simprof-srs",
                       "SimProf's SRS baseline: a simple random sample of launches grown to the error budget",
                       Params::schema(), make_srs, true);
STROBE_SAMPLING_METHOD(kSimProfCodeRegistered, "simprof-code",
                       "SimProf's CODE baseline: SimProf's phases, one launch each (nearest the centre), no interval",
                       Params::schema(), make_code, true);
STROBE_SAMPLING_METHOD(kSimProfWindowRegistered, "simprof-window",
                       "SimProf's window baseline (the paper's SECOND): one contiguous run of launches at a seeded "
                       "start, grown to the error budget",
                       Params::schema(), make_window, true);

}  // namespace strobe::sampling
