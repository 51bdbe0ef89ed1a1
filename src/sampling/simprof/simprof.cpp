// SimProf (Huang, dissertation ch. 5) as a sampling method, `simprof`, and its baselines
// `simprof-srs`, `simprof-code` and `simprof-window` (METHODS.md §3.4), over kernel launches as
// sampling units (METHODS.md §3.8).
//
// Pass 0 profiles every launch functionally: its basic-block vector, its wave instructions and,
// with proxy=gpumech, GPUMech's predicted cycles (from the same functional run's trace). A
// `--profile` file replaces the profiling; with proxy=gpumech pass 0 still runs, modelling each
// launch from the file's saved trace. Phases are then formed (phases.h) and the first sample
// drawn (sample_design.h). Each later pass is a round: every launch runs functionally except the
// round's newly sampled units, which run in full detail. After a round the estimate of total
// cycles and its interval are computed from every unit measured so far; when the interval is
// wider than the error budget, the sample grows (Neyman allocation from the measured spreads)
// and another round runs, until the budget is met or every unit has been simulated. The last
// round's launch records carry the estimate: a measured unit its cycles, any other its
// stratum's share.
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
  /// A launch of the current round that was not measured: its time is its stratum's share,
  /// known when the round ends.
  struct Pending {
    size_t unit = 0;
    std::shared_ptr<timing::LaunchTiming> timing;
    std::shared_ptr<runtime::SampledLaunch> record;
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
    } else if (gpumech_proxy()) {
      sp::LaunchRecord rec = sp::begin_record(d, mem);
      const gpumech::SavedTrace saved =
          gpumech::trace_for_profile(d, mem, gpu.config(), model_.max_instructions, r.stats, &rec);
      const std::string where = fmt::format("launch {}", i);
      proxy_cycles_.push_back(gpumech::model_saved_launch(d, saved, gpu.config(), model_, where).prediction.cycles);
      profiled_.push_back(std::move(rec));
    } else {
      profiled_.push_back(sp::profile_launch(d, mem, line_bytes(), r.stats));
      proxy_cycles_.push_back(0);
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
    const size_t n = launches.size();
    ids_.clear();
    for (const auto& l : launches) ids_.push_back(l.id);
    pop_.size.resize(n);
    for (size_t i = 0; i < n; ++i) pop_.size[i] = double(launches[i].workgroups.sum(sp::column::kWaveInsts));
    if (proxy_cycles_.size() != n) proxy_cycles_.assign(n, 0);
    proxy_cpi_.resize(n);
    for (size_t i = 0; i < n; ++i) proxy_cpi_[i] = pop_.size[i] > 0 ? proxy_cycles_[i] / pop_.size[i] : 0;
    y_.assign(n, std::numeric_limits<double>::quiet_NaN());
    measured_in_.assign(n, -1);
    if (n == 0) {
      pop_.strata = 1;
      pop_.stratum.clear();
      return;
    }
    if (design_ == Design::Stratified || design_ == Design::Code) {
      const Signatures sig = launch_signatures(launches, source());
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
    // The first launches start from cold caches, unlike any other: known before any run to be
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
      for (double c : proxy_cycles_) mean += c;
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
    return stratum_spreads(pop_, all, proxy_cycles_, p_.estimator);
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

  /// A round's launch: in detail when the round sampled it, else functionally.
  runtime::LaunchResult run_round(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) {
    const size_t i = launch_++;
    if (auto diff = sp::departure_from_profile(i, sp::identify(d, mem), ids_, kernargs_comparable_, source()))
      not_followed(i, *diff);
    auto rec = std::make_shared<runtime::SampledLaunch>();
    rec->method = method_name(design_);
    rec->emulated = !o_.skip_functional;
    rec->detail = {{"unit", i}, {"phase", phases_.phase[i]}, {"stratum", pop_.stratum[i]}};
    runtime::LaunchResult r;
    std::shared_ptr<timing::LaunchTiming> lt;
    const uint64_t insts = uint64_t(pop_.size[i]);
    const bool sampled = std::binary_search(round_units_.begin(), round_units_.end(), i);
    if (sampled || warms_a_sampled_unit(i)) {
      // In detail: a unit the round measures, or a warm-up before one, run in detail so the
      // unit starts from the state a full detailed run leaves (functional warming leaves the
      // caches close to it, not equal); a warm-up's own time is not a measurement.
      lt = std::make_shared<timing::LaunchTiming>(gpu.run(d, mem));
      r.stats = lt->functional;
      rec->detailed_instructions = lt->detailed_wave_instructions;
      if (sampled) {
        y_[i] = double(lt->cycles);
        measured_in_[i] = rounds_;
      } else {
        rec->detail["warmup"] = true;
      }
    } else {
      if (!o_.skip_functional) r.stats = run_functional_launch(d, mem, gpu, o_.warming);
      const uint64_t ran = o_.skip_functional ? insts : r.stats.wave_instructions;
      const uint64_t threads = o_.skip_functional ? 0 : r.stats.thread_instructions;
      lt = std::make_shared<timing::LaunchTiming>(
          timing::predicted_launch_timing(d.kernel_name, 0, ran, threads, r.stats, gpu.config().clock_mhz));
      // Simulated in detail in an earlier round: its work counted as detailed, where it was spent.
      (measured_in_[i] >= 0 ? rec->detailed_instructions : rec->predicted_instructions) = ran;
    }
    if (measured_in_[i] >= 0) {  // measured, now or in an earlier round: its measured time
      const uint64_t cycles = uint64_t(y_[i]);
      lt->set_totals(cycles, lt->wave_instructions, lt->thread_instructions, gpu.config().clock_mhz);
      rec->level = "detailed";
      rec->estimated_cycles = cycles;
      rec->detail["round"] = measured_in_[i];
    } else {  // its stratum's share, known when the round ends
      rec->level = "phase";
      pending_.push_back({i, lt, rec});
    }
    r.timing = lt;
    r.sampling = rec;
    return r;
  }

  /// Whether launch `i` is one of the `warmup` launches before a unit this round measures.
  bool warms_a_sampled_unit(size_t i) const {
    for (uint64_t k = 1; k <= p_.warmup; ++k)
      if (std::binary_search(round_units_.begin(), round_units_.end(), i + k)) return true;
    return false;
  }

  /// After a round: the estimate, then either another round or the estimates written into the
  /// round's records.
  void end_round() {
    if (launch_ != pop_.stratum.size())
      not_followed(launch_, fmt::format("the run had {} launches, the profile {}", launch_, pop_.stratum.size()));
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
      const int h = pop_.stratum[p.unit];
      const double c = p_.estimator == Estimator::Ratio ? ratio[size_t(h)] * pop_.size[p.unit] : mean[size_t(h)];
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
  std::vector<double> proxy_cycles_, proxy_cpi_;
  Phases phases_;
  Population pop_;
  std::optional<StratifiedDraw> draw_;
  uint64_t window_begin_ = 0, window_end_ = 0;
  uint64_t cold_ = 0;  ///< leading launches in the take-all cold-start stratum (the last one)
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
  s["units"] = {{"kind", "launch"}, {"count", n}};
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
                     {"text", finite ? fmt::format("cycles = {:.0f} ± {:.0f} ({:g}% CI; {} of {} launches in detail{})",
                                                   e.total, e.half_width, 100 * p_.confidence, sampled, n,
                                                   design_ == Design::Window ? "; a window, not a random sample" : "")
                                     : fmt::format("cycles = {:.0f}, no interval ({} of {} launches in detail)", e.total,
                                                   sampled, n)}};
  } else {
    s["interval"] = {{"text", fmt::format("cycles = {:.0f}: one launch per phase, no variance to give an interval "
                                          "({} of {} launches in detail)",
                                          final_total_, sampled, n)}};
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
