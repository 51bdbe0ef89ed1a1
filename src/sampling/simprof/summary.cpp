// SimProf's report (see simprof.cpp): the units, phases, strata, rounds and the interval, and
// for a run that reused a training, Eq. 38's verdict per phase.
#include "sampling/simprof/simprof_method.h"

#include <cmath>

#include <fmt/format.h>

namespace strobe::sampling::simprof {

nlohmann::json SimProf::summary() const {
  nlohmann::json s;
  const uint64_t n = pop_.stratum.size();
  s["design"] = design_.name;
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
  if (design_.phases) {
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
  if (reuse_) {
    s["phases"]["feature_selection"] = "the training's, " + p_.training;
    // Per stratum, which is the phase but for the cold-start units (measured on their own).
    std::vector<double> insts(size_t(pop_.strata), 0);
    std::vector<uint64_t> count(size_t(pop_.strata), 0);
    for (size_t u = 0; u < n; ++u) insts[size_t(pop_.stratum[u])] += pop_.size[u], ++count[size_t(pop_.stratum[u])];
    insts.resize(size_t(phases_.k)), count.resize(size_t(phases_.k));
    s["sensitivity"] = describe_reuse(*reuse_, *training_, insts, count, parts_, p_.training, p_.sensitivity);
    s["sensitivity"]["reuse_by"] = choice_name(p_.reuse_by);
  }
  if (!p_.save_training.empty()) s["training_saved"] = p_.save_training;
  nlohmann::json strata = nlohmann::json::array();
  const auto measured = measured_units();
  for (int h = 0; h < pop_.strata && n > 0; ++h) {
    strata.push_back({{"units", pop_.members(h).size()}, {"sampled", measured[size_t(h)].size()}});
    if (reuse_) strata.back()["reused"] = reused_[size_t(h)] != 0;
  }
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
                     {"valid", !design_.window},
                     {"variance_from", reuse_ ? "the units simulated in detail here and, for the reused phases, in the training" : "the units simulated in detail"},
                     {"text", finite ? fmt::format("cycles = {:.0f} ± {:.0f} ({:g}% CI; {} of {} {} in detail{})",
                                                   e.total, e.half_width, 100 * p_.confidence, sampled, n, what,
                                                   design_.window ? "; a window, not a random sample"
                                                   : reuse_ ? fmt::format("; {} units' phases reused from {}", n - eligible_, p_.training)
                                                            : std::string())
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

}  // namespace strobe::sampling::simprof
