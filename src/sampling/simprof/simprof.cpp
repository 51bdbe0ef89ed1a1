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
//
// The class is declared in simprof_method.h; this file holds its construction, profiling, phases
// and first sample, and the registrations. rounds.cpp and summary.cpp hold the rest.
#include "sampling/simprof/simprof_method.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

#include <fmt/format.h>

#include "common/error.h"
#include "emu/executor.h"
#include "sampling/gpumech/model_inputs.h"
#include "sampling/numeric/mix.h"

namespace strobe::sampling {

namespace simprof {

const DesignTraits& traits(Design d) {
  // name, phases, random, one_per_phase, window, simprof_allocation
  static constexpr DesignTraits kTraits[] = {
      {"simprof", true, true, false, false, true},         // Stratified
      {"simprof-srs", false, true, false, false, false},   // Random: SRS
      {"simprof-code", true, false, true, false, false},   // Code: CODE
      {"simprof-window", false, false, false, true, false},  // Window: SECOND
  };
  return kTraits[size_t(d)];
}

SimProf::SimProf(const MethodOptions& o, Design design)
    : o_(o),
      p_(Params::from(o)),
      design_(traits(design)),
      z_(z_for_confidence(p_.confidence)),
      proxy_pass_([this](const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) { return run_proxy(d, mem, gpu); }),
      round_([this](const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) { return run_round(d, mem, gpu); }) {
  model_ = gpumech::proxy_options(o.gpu);
  if (o_.profile && p_.unit_insts > 0)
    throw InputError(fmt::format("{}: unit_insts={} cuts launches into work-group ranges while profiling, and a "
                                 "profile file holds no per-range basic-block vectors; run without --profile",
                                 design_.name, p_.unit_insts));
  check_training_params();
  if (!p_.training.empty()) training_ = load_training(p_.training);
  if (training_ && training_->unit_insts != p_.unit_insts)
    throw InputError(fmt::format("simprof: training {} cut launches with unit_insts={}, this run with {}; the units "
                                 "must be cut alike to share phases",
                                 p_.training, training_->unit_insts, p_.unit_insts));
  if (training_ && training_->kernel_weight != p_.kernel_weight)
    throw InputError(fmt::format("simprof: training {} used kernel_weight={}, this run {}; the signatures must be "
                                 "alike to share phases",
                                 p_.training, training_->kernel_weight, p_.kernel_weight));
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

void SimProf::end_pass(int pass) {
  if (pass < proxy_passes_) {
    prepare(o_.profile ? o_.profile->launches : profiled_);
    return;
  }
  end_round();
}

void SimProf::check_training_params() const {
  const bool save = !p_.save_training.empty(), use = !p_.training.empty();
  if (!save && !use) return;
  const char* key = save ? "save_training" : "training";
  if (!design_.simprof_allocation)
    throw InputError(fmt::format("{}: {}= is SimProf's input-sensitivity workflow; run it with --sampling simprof",
                                 design_.name, key));
  if (!gpumech_proxy())
    throw InputError(fmt::format("simprof: {}= needs every unit's GPUMech CPI (Eq. 38 compares its moments per "
                                 "phase), which proxy=pilot does not give; use proxy=gpumech",
                                 key));
  if (save && use)
    throw InputError("simprof: save_training= and training= together: a training is saved by a run that formed "
                     "its own phases");
}

runtime::LaunchResult SimProf::run_proxy(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) {
  runtime::LaunchResult r;
  const auto t0 = std::chrono::steady_clock::now();
  const size_t i = proxy_cycles_.size();
  if (o_.profile) {
    if (auto diff = departure(o_, i, d, mem, ids_, kernargs_comparable_, source()))
      not_followed(i, *diff);
    const sp::LaunchRecord& rec = o_.profile->launches[i];
    const auto blob = rec.blobs.find(gpumech::kProfileBlob);
    if (blob == rec.blobs.end())
      throw InputError(fmt::format("{}: {} has no GPUMech trace for launch {} ({}), which proxy=gpumech needs; {}, or "
                                   "use --sampling-set proxy=pilot",
                                   design_.name, source(), i, d.kernel_name,
                                   o_.from_capture ? "capture it with strobe capture --gpumech"
                                                   : "write it with strobe profile --gpumech"));
    const std::string where = fmt::format("{} launch {}", source(), i);
    const gpumech::SavedTrace saved = gpumech::decode_saved_trace(blob->second, where);
    proxy_cycles_.push_back(gpumech::model_saved_launch(d, saved, gpu.config(), model_, where).prediction.cycles);
    // Run for the sake of later launches' memory, which a capture's checkpoints already hold.
    if (!skips_predicted(o_, d)) r.stats = emu::run_dispatch(d, mem, gpu.host_threads());
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
  r.sampling = profile_record(design_.name, r.stats.wave_instructions);
  return r;
}

void SimProf::not_followed(size_t i, const std::string& why) const {
  throw NotImplementedError(fmt::format(
      "{} over a launch sequence that depends on timing: launch {} is not the profiled one ({}); the population "
      "of units is fixed by the profile",
      design_.name, i, why));
}

void SimProf::prepare(const std::vector<sp::LaunchRecord>& launches) {
  ids_.clear();
  for (const auto& l : launches) ids_.push_back(l.id);
  if (proxy_cycles_.size() != launches.size()) proxy_cycles_.assign(launches.size(), 0);
  // The units: a launch cut into several ranges gives one unit per range, any other launch one.
  units_.clear();
  launch_first_.assign(1, 0);
  const bool phased = design_.phases;
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
  cold_ = design_.random ? std::min<uint64_t>(p_.cold_start, n) : 0;
  const size_t cold_units = cold_ > 0 && cold_ < n ? cold_ : 0;
  if (training_) {
    std::vector<std::string> kernel(n);
    std::map<std::string, uint64_t> hashes;
    for (size_t u = 0; u < n; ++u) kernel[u] = ids_[units_[u].launch].kernel;
    for (const sp::LaunchIdentity& id : ids_) hashes[id.kernel] = id.code_hash;
    reuse_ = apply_training(*training_, code_signatures(code, p_.kernel_weight), kernel, proxy_cpi_, cold_units,
                            hashes, p_.training, p_.sensitivity);
    phases_ = Phases{};
    phases_.phase = reuse_->phase;
    phases_.k = reuse_->phases + (reuse_->unseen ? 1 : 0);
    phases_.centres = training_->centres;
    phases_.kept = training_->features;
  } else if (phased) {
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
  if (cold_units > 0) {
    for (size_t i = 0; i < cold_; ++i) pop_.stratum[i] = pop_.strata;
    ++pop_.strata;
    // A phase left with no unit (every member was cold) keeps its index, empty.
  }
  // The training's insensitive phases: their cycles are the training's measured ratio (per
  // predicted cycle or per instruction, reuse_by) times this input's total of it in them, and
  // none of their units is simulated.
  reused_.assign(size_t(pop_.strata), 0);
  parts_.assign(size_t(pop_.strata), EstimatedPart{});
  eligible_ = n;
  if (reuse_) {
    for (int h = 0; h < reuse_->phases; ++h) {
      if (!reuse_->reused[size_t(h)]) continue;
      reused_[size_t(h)] = 1;
      const std::vector<size_t> members = pop_.members(h);
      double x = 0;
      for (size_t u : members) x += reuse_aux(u);
      eligible_ -= members.size();
      parts_[size_t(h)] = transferred(reuse_fit(h), x);
    }
  }
  draw_.emplace(pop_, p_.seed);
  first_sample();
}

void SimProf::first_sample() {
  const uint64_t n = pop_.stratum.size();
  std::vector<uint64_t> want(size_t(pop_.strata), 0);
  const uint64_t min = p_.min_per_phase;
  if (design_.one_per_phase) {
    for (size_t h = 0; h < phases_.nearest.size(); ++h) round_units_.push_back(phases_.nearest[h]);
    std::sort(round_units_.begin(), round_units_.end());
    return;
  }
  const std::vector<StratumDesign> proxy = proxy_spreads();
  if (p_.units > 0) {
    want = neyman_allocation(proxy, std::min<uint64_t>(p_.units, eligible_), design_.simprof_allocation ? min : 1);
  } else if (gpumech_proxy()) {
    double total = 0, fresh = 0;
    for (size_t u = 0; u < n; ++u) {
      total += unit_proxy_[u];
      if (!reused_[size_t(pop_.stratum[u])]) fresh += unit_proxy_[u];
    }
    const Budget b = fresh_budget(total, fresh);
    if (b.mean > 0) want = budget_allocation(proxy, b.mean, b.rel_error, z_, {}, min);
    for (int h = 0; h < pop_.strata; ++h)
      if (!reused_[size_t(h)]) want[size_t(h)] = std::max<uint64_t>(want[size_t(h)], min);
  } else {
    want.assign(size_t(pop_.strata), min);  // the pilot
  }
  if (design_.window) {
    const uint64_t w = std::min<uint64_t>(n, std::max<uint64_t>(2, std::accumulate(want.begin(), want.end(), uint64_t{0})));
    // One contiguous window at a seeded start: the paper's SECOND.
    uint64_t s = p_.seed;
    window_begin_ = n > w ? splitmix64(s) % (n - w + 1) : 0;
    window_end_ = window_begin_;
    grow_window(w);
    return;
  }
  if (design_.simprof_allocation && p_.units == 0) proportional_floor(want, pop_, p_.proportional);
  for (int h = 0; h < pop_.strata; ++h)
    if (reused_[size_t(h)]) want[size_t(h)] = 0;
  if (cold_ > 0 && cold_ < n) want[size_t(pop_.strata - 1)] = cold_;
  for (int h = 0; h < pop_.strata; ++h) add_units(draw_->grow(h, want[size_t(h)]));
}

SimProf::Budget SimProf::fresh_budget(double total, double fresh) const {
  double reused_var = 0;
  for (const EstimatedPart& p : parts_) reused_var += p.variance;
  const uint64_t units = eligible_ > 0 ? eligible_ : 1;
  Budget b;
  b.mean = fresh / double(units);
  const double left = std::pow(p_.error * total, 2) - z_ * z_ * reused_var;
  // The reused phases alone exceed the budget: the fresh strata are sized for a hundredth of it
  // (nearly whole), and the summary says the budget was not met.
  b.rel_error = fresh > 0 ? std::max(std::sqrt(std::max(left, 0.0)), p_.error * total / 100) / fresh : p_.error;
  return b;
}

void SimProf::grow_window(uint64_t w) {
  const uint64_t n = pop_.stratum.size();
  std::vector<size_t> added;
  while (window_end_ - window_begin_ < std::min(w, n)) {
    if (window_end_ < n) added.push_back(window_end_++);
    else added.push_back(--window_begin_);
  }
  add_units(added);
}

std::vector<std::vector<size_t>> SimProf::measured_units() const {
  std::vector<std::vector<size_t>> m(size_t(pop_.strata));
  for (size_t i = 0; i < measured_in_.size(); ++i)
    if (measured_in_[i] >= 0) m[size_t(pop_.stratum[i])].push_back(i);
  return m;
}

}  // namespace simprof

namespace {

using simprof::Design;
using simprof::Params;
using simprof::SimProf;

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
