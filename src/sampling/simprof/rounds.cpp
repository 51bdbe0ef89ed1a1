// SimProf's rounds (see simprof.cpp): each runs every launch, the round's sampled units in
// detail; after it, the estimate and its interval, then either a larger sample or the final
// estimate written into the launch records, and the training a run saves for other inputs.
#include "sampling/simprof/simprof_method.h"

#include <cmath>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "common/error.h"
#include "sampling/simprof/range_observer.h"

namespace strobe::sampling::simprof {

namespace {

/// The window's next length: what the formula asks, at least a quarter more, at most every unit.
uint64_t window_growth_target(uint64_t current, uint64_t formula, uint64_t population) {
  return std::min<uint64_t>(population, std::max<uint64_t>(formula, current + std::max<uint64_t>(1, current / 4)));
}

}  // namespace

runtime::LaunchResult SimProf::run_round(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) {
  const size_t i = launch_++;
  if (auto diff = departure(o_, i, d, mem, ids_, kernargs_comparable_, source()))
    not_followed(i, *diff);
  const size_t first = launch_first_[i], end = launch_first_[i + 1];
  const bool whole = end == first + 1 && units_[first].whole;
  const bool skip = skips_predicted(o_, d);
  auto rec = std::make_shared<runtime::SampledLaunch>();
  rec->method = design_.name;
  rec->emulated = !skip;
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
    if (!skip) r.stats = run_functional_launch(d, mem, gpu, o_.warming);
    uint64_t insts = 0;
    for (size_t u = first; u < end; ++u) insts += uint64_t(pop_.size[u]);
    const uint64_t ran = skip ? insts : r.stats.wave_instructions;
    const uint64_t threads = skip ? 0 : r.stats.thread_instructions;
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

timing::LaunchTiming SimProf::measure_ranges(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu, size_t i,
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
                    uint64_t(std::ceil(p_.range_cooldown * full)), skips_predicted(o_, d));
  obs.set_warming(warmer_for(gpu, o_.warming));
  timing::LaunchTiming lt = gpu.run(d, mem, &obs);
  for (size_t u : now) {
    y_[u] = double(obs.cycles(u - first));
    measured_in_[u] = rounds_;
  }
  rec.detail["warmup_workgroups"] = obs.warmup_groups();  // before and after the measured ranges
  return lt;
}

void SimProf::end_round() {
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
  const bool fixed = p_.units > 0 || design_.one_per_phase;
  const bool met = round.estimate.rel_error <= p_.error;
  if (fixed || met || round.sampled >= eligible_ || n == 0) {
    finish(measured);
    return;
  }
  pending_.clear();  // that round's records are not the result
  grow(measured, round.estimate);
  ++passes_;
}

StratifiedEstimate SimProf::estimate(const std::vector<std::vector<size_t>>& measured) const {
  // A stratum with one measured unit of several (a pilot of one) has no spread: treat it as
  // the paper cannot, by growing it; the estimate then has no finite interval yet.
  for (int h = 0; h < pop_.strata; ++h)
    if (measured[size_t(h)].size() == 1 && draw_size(h) > 1) {
      StratifiedEstimate e;
      e.rel_error = std::numeric_limits<double>::infinity();
      e.z = z_;
      return e;
    }
  StratifiedEstimate e = estimate_total(pop_, measured, y_, p_.estimator, z_, reused_);
  if (reuse_) {
    e.units = pop_.stratum.size();
    e = with_parts(e, parts_, z_);
  }
  return p_.interval == Interval::T ? with_t_interval(e, p_.confidence) : e;
}

void SimProf::grow(const std::vector<std::vector<size_t>>& measured, const StratifiedEstimate& e) {
  const std::vector<StratumDesign> spreads = without_reused(stratum_spreads(pop_, measured, y_, p_.estimator));
  std::vector<uint64_t> current(size_t(pop_.strata));
  uint64_t now = 0;
  for (int h = 0; h < pop_.strata; ++h) now += current[size_t(h)] = measured[size_t(h)].size();
  double reused_total = 0;
  for (const EstimatedPart& p : parts_) reused_total += p.total;
  const Budget b = fresh_budget(e.total, e.total - reused_total);
  std::vector<uint64_t> want =
      budget_allocation(spreads, b.mean > 0 ? b.mean : 1, b.rel_error, z_, current, p_.min_per_phase);
  // At least a quarter more each round, so the rounds end even where the formula, fed noisy
  // spreads, keeps asking for what is already there.
  uint64_t total = std::accumulate(want.begin(), want.end(), uint64_t{0});
  const uint64_t floor = now + std::max<uint64_t>(1, now / 4);
  if (total < floor) {
    want = neyman_allocation(spreads, floor, p_.min_per_phase);
    for (size_t h = 0; h < want.size(); ++h) want[h] = std::max(want[h], current[h]);
    total = std::accumulate(want.begin(), want.end(), uint64_t{0});
  }
  if (design_.simprof_allocation) proportional_floor(want, pop_, p_.proportional);
  for (int h = 0; h < pop_.strata; ++h)
    if (reused_[size_t(h)]) want[size_t(h)] = 0;
  if (design_.window) {
    grow_window(window_growth_target(now, total, pop_.stratum.size()));
  } else {
    for (int h = 0; h < pop_.strata; ++h) add_units(draw_->grow(h, want[size_t(h)]));
  }
  // Every stratum already whole but the budget unmet (n - 1 spreads of a tiny stratum): take
  // the rest, which ends the rounds.
  if (round_units_.empty())
    for (size_t i = 0; i < measured_in_.size(); ++i)
      if (measured_in_[i] < 0 && !reused_[size_t(pop_.stratum[i])]) round_units_.push_back(i);
}

void SimProf::finish(const std::vector<std::vector<size_t>>& measured) {
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
  auto share = [&](size_t u) {
    const int h = pop_.stratum[u];
    // A reused phase: the training's ratio, whichever estimator runs here.
    if (reused_[size_t(h)]) return reuse_fit(h).ratio * reuse_aux(u);
    return p_.estimator == Estimator::Ratio ? ratio[size_t(h)] * pop_.size[u] : mean[size_t(h)];
  };
  double total = 0;
  for (size_t i = 0; i < y_.size(); ++i) {
    if (measured_in_[i] >= 0) {
      total += y_[i];
      continue;
    }
    total += share(i);
  }
  final_total_ = total;
  for (Pending& p : pending_) {
    double c = p.known;
    for (size_t u : p.units) c += share(u);
    const uint64_t cycles = uint64_t(std::llround(c));
    p.timing->set_totals(cycles, p.timing->wave_instructions, p.timing->thread_instructions, o_.gpu.clock_mhz);
    p.record->estimated_cycles = cycles;
  }
  pending_.clear();
  if (!p_.save_training.empty()) save_training(p_.save_training, training(measured));
}

Training SimProf::training(const std::vector<std::vector<size_t>>& measured) const {
  Training t;
  t.unit_insts = p_.unit_insts;
  t.kernel_weight = p_.kernel_weight;
  t.features = phases_.kept;
  t.centres = phases_.centres;
  for (const sp::LaunchIdentity& id : ids_) t.kernels[id.kernel] = id.code_hash;
  for (int h = 0; h < phases_.k; ++h) {
    std::vector<double> metric, cycles, insts, proxy;
    double x = 0, predicted = 0;
    for (size_t u : pop_.members(h)) metric.push_back(proxy_cpi_[u]), x += pop_.size[u], predicted += unit_proxy_[u];
    for (size_t u : measured[size_t(h)])
      cycles.push_back(y_[u]), insts.push_back(pop_.size[u]), proxy.push_back(unit_proxy_[u]);
    t.phases.push_back(train_phase(metric, x, predicted, cycles, insts, proxy));
  }
  return t;
}

}  // namespace strobe::sampling::simprof
