// SimProf's training file and its reuse on another input (see training.h).
#include "sampling/simprof/training.h"

#include <cmath>
#include <limits>
#include <numeric>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/atomic_file.h"
#include "common/error.h"

namespace strobe::sampling::simprof {

namespace {

constexpr const char* kFormat = "strobe-simprof-training";
constexpr int kVersion = 2;  // 2: both ratio fits per phase

/// A finite double, or null for infinity (JSON has none).
nlohmann::json finite_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }

nlohmann::json fit_json(const RatioFit& f) { return {{"ratio", f.ratio}, {"se", f.se}, {"df", finite_or_null(f.df)}}; }

/// A ratio fit back from JSON; throws nlohmann's exceptions on a missing or mistyped field.
RatioFit fit_from(const nlohmann::json& j) {
  RatioFit f;
  f.ratio = j.at("ratio").get<double>();
  f.se = j.at("se").get<double>();
  f.df = j.at("df").is_null() ? std::numeric_limits<double>::infinity() : j.at("df").get<double>();
  return f;
}

}  // namespace

std::string encode_training(const Training& t) {
  nlohmann::json j;
  j["format"] = kFormat;
  j["version"] = kVersion;
  j["unit_insts"] = t.unit_insts;
  j["kernel_weight"] = t.kernel_weight;
  j["features"] = t.features;
  j["kernels"] = t.kernels;
  nlohmann::json phases = nlohmann::json::array();
  for (size_t h = 0; h < t.phases.size(); ++h) {
    const TrainedPhase& p = t.phases[h];
    std::vector<double> centre(size_t(t.centres.cols()));
    for (Eigen::Index c = 0; c < t.centres.cols(); ++c) centre[size_t(c)] = t.centres(Eigen::Index(h), c);
    phases.push_back({{"centre", centre},
                      {"units", p.units},
                      {"sampled", p.sampled},
                      {"insts", p.insts},
                      {"metric", {{"units", p.metric.units}, {"mean", p.metric.mean}, {"sd", p.metric.sd}}},
                      {"proxy", p.proxy},
                      {"cpi", fit_json(p.cpi)},
                      {"calibration", fit_json(p.calibration)}});
  }
  j["phases"] = phases;
  return j.dump(1) + "\n";
}

Training decode_training(std::string_view text, const std::string& name) {
  auto bad = [&](const std::string& why) {
    return InputError(fmt::format("SimProf training {}: {}", name, why));
  };
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw bad(fmt::format("not JSON ({})", e.what()));
  }
  Training t;
  try {
    if (!j.is_object() || j.value("format", "") != kFormat)
      throw bad(fmt::format("not a training file (no \"format\": \"{}\")", kFormat));
    if (j.at("version").get<int>() != kVersion)
      throw bad(fmt::format("version {}, this strobe reads version {}", j.at("version").dump(), kVersion));
    t.unit_insts = j.at("unit_insts").get<uint64_t>();
    t.kernel_weight = j.at("kernel_weight").get<double>();
    t.features = j.at("features").get<std::vector<std::string>>();
    t.kernels = j.at("kernels").get<std::map<std::string, uint64_t>>();
    const auto& phases = j.at("phases");
    if (!phases.is_array() || phases.empty()) throw bad("no phases");
    t.centres.resize(Eigen::Index(phases.size()), Eigen::Index(t.features.size()));
    for (size_t h = 0; h < phases.size(); ++h) {
      const auto& p = phases[h];
      const auto centre = p.at("centre").get<std::vector<double>>();
      if (centre.size() != t.features.size())
        throw bad(fmt::format("phase {} has {} centre coordinates for {} features", h, centre.size(), t.features.size()));
      for (size_t c = 0; c < centre.size(); ++c) t.centres(Eigen::Index(h), Eigen::Index(c)) = centre[c];
      TrainedPhase tp;
      tp.units = p.at("units").get<uint64_t>();
      tp.sampled = p.at("sampled").get<uint64_t>();
      tp.insts = p.at("insts").get<double>();
      tp.metric.units = p.at("metric").at("units").get<uint64_t>();
      tp.metric.mean = p.at("metric").at("mean").get<double>();
      tp.metric.sd = p.at("metric").at("sd").get<double>();
      tp.proxy = p.at("proxy").get<double>();
      tp.cpi = fit_from(p.at("cpi"));
      tp.calibration = fit_from(p.at("calibration"));
      if (tp.sampled > tp.units) throw bad(fmt::format("phase {} has {} of {} units sampled", h, tp.sampled, tp.units));
      for (const RatioFit* f : {&tp.cpi, &tp.calibration})
        if (!(f->ratio >= 0) || !(f->se >= 0) || !(f->df > 0))
          throw bad(fmt::format("phase {} has a negative or undefined ratio, error or df", h));
      t.phases.push_back(tp);
    }
  } catch (const nlohmann::json::exception& e) {
    throw bad(fmt::format("malformed ({})", e.what()));
  }
  return t;
}

void save_training(const std::string& path, const Training& t) { write_file_atomic(path, encode_training(t)); }

Training load_training(const std::string& path) { return decode_training(read_file(path), path); }

RatioFit fit_ratio(uint64_t units, std::span<const double> y, std::span<const double> x, double x_total) {
  RatioFit f;
  if (y.empty() || !(x_total > 0) || std::accumulate(x.begin(), x.end(), 0.0) <= 0) return f;
  StratumSample s;
  s.size = units;
  s.values.assign(y.begin(), y.end());
  s.aux.assign(x.begin(), x.end());
  s.aux_total = x_total;
  // The total's estimate and SE over X are R̂'s.
  const StratifiedEstimate e = stratified_ratio_estimate(std::span<const StratumSample>(&s, 1), 1);
  f.ratio = e.total / x_total;
  f.se = e.total_se / x_total;
  f.df = e.df;
  return f;
}

TrainedPhase train_phase(std::span<const double> metric, double insts, double proxy,
                         std::span<const double> measured_cycles, std::span<const double> measured_insts,
                         std::span<const double> measured_proxy) {
  TrainedPhase p;
  p.metric = moments(metric);
  p.units = metric.size();
  p.sampled = measured_cycles.size();
  p.insts = insts;
  p.proxy = proxy;
  p.cpi = fit_ratio(p.units, measured_cycles, measured_insts, insts);
  p.calibration = fit_ratio(p.units, measured_cycles, measured_proxy, proxy);
  return p;
}

Eigen::MatrixXd project(const Signatures& sig, std::span<const std::string> features) {
  std::map<std::string, Eigen::Index> col;
  for (size_t c = 0; c < sig.names.size(); ++c) col.emplace(sig.names[c], Eigen::Index(c));
  Eigen::MatrixXd x = Eigen::MatrixXd::Zero(sig.x.rows(), Eigen::Index(features.size()));
  for (size_t f = 0; f < features.size(); ++f)
    if (auto it = col.find(features[f]); it != col.end()) x.col(Eigen::Index(f)) = sig.x.col(it->second);
  return x;
}

Reuse apply_training(const Training& t, const Signatures& sig, std::span<const std::string> kernel,
                     std::span<const double> metric, size_t exclude_first,
                     const std::map<std::string, uint64_t>& code, const std::string& source, double threshold) {
  for (const auto& [name, hash] : code)
    if (auto it = t.kernels.find(name); it != t.kernels.end() && it->second != hash)
      throw InputError(fmt::format("SimProf training {}: kernel {} has other code in this run than in the training "
                                   "run; train again on this build of the program",
                                   source, name));
  Reuse r;
  r.phases = int(t.phases.size());
  r.phase = nearest_centres(project(sig, t.features), t.centres);
  for (size_t u = 0; u < r.phase.size(); ++u)
    if (!t.kernels.contains(kernel[u])) r.phase[u] = r.phases, r.unseen = true;
  std::vector<std::vector<double>> by(t.phases.size());
  for (size_t u = exclude_first; u < r.phase.size(); ++u)
    if (r.phase[u] < r.phases) by[size_t(r.phase[u])].push_back(metric[u]);
  for (size_t h = 0; h < t.phases.size(); ++h) {
    r.input.push_back(moments(by[h]));
    r.verdict.push_back(phase_sensitivity(t.phases[h].metric, r.input.back(), threshold));
    r.reused.push_back(!r.verdict.back().sensitive && !by[h].empty() && t.phases[h].sampled > 0 ? 1 : 0);
  }
  return r;
}

EstimatedPart transferred(const RatioFit& f, double x) {
  EstimatedPart e;
  e.total = f.ratio * x;
  e.variance = std::pow(f.se * x, 2);
  e.df = f.df;
  return e;
}

nlohmann::json describe_reuse(const Reuse& r, const Training& t, std::span<const double> insts,
                              std::span<const uint64_t> units, std::span<const EstimatedPart> part,
                              const std::string& source, double threshold) {
  nlohmann::json phases = nlohmann::json::array();
  double all_insts = 0, reused_insts = 0;
  uint64_t all_units = 0, reused_units = 0;
  int reused = 0;
  for (size_t h = 0; h < insts.size(); ++h) all_insts += insts[h], all_units += units[h];
  for (size_t h = 0; h < t.phases.size(); ++h) {
    const TrainedPhase& tp = t.phases[h];
    nlohmann::json j = {{"phase", h},
                        {"training", {{"units", tp.metric.units}, {"proxy_cpi_mean", tp.metric.mean},
                                      {"proxy_cpi_sd", tp.metric.sd}, {"sampled", tp.sampled},
                                      {"cpi", tp.cpi.ratio}, {"cycles_per_predicted", tp.calibration.ratio}}},
                        {"input", {{"units", r.input[h].units}, {"proxy_cpi_mean", r.input[h].mean},
                                   {"proxy_cpi_sd", r.input[h].sd}}},
                        {"sensitive", r.verdict[h].sensitive},
                        {"reason", r.verdict[h].reason},
                        {"reused", r.reused[h] != 0}};
    if (r.reused[h]) {
      ++reused;
      reused_insts += insts[h];
      reused_units += units[h];
      j["cycles"] = part[h].total;
    } else if (!r.verdict[h].sensitive) {
      j["reason"] = r.input[h].units == 0 ? "no unit of this input is in it" : "not measured in the training";
    }
    phases.push_back(std::move(j));
  }
  const double share = all_insts > 0 ? reused_insts / all_insts : 0;
  return {{"training", source},
          {"threshold", threshold},
          {"phases", phases},
          {"reused_phases", reused},
          {"reused_units", reused_units},
          {"reused_insts_share", share},
          {"unseen_kernel_units", r.unseen ? units.back() : 0},
          {"text", fmt::format("{} of {} phases of {} reused ({} of {} units, {:.1f}% of wave instructions, not "
                               "simulated); the rest simulated afresh",
                               reused, t.phases.size(), source, reused_units, all_units, 100 * share)}};
}

}  // namespace strobe::sampling::simprof
