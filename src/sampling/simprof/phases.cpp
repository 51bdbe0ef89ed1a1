// SimProf's phase formation (see phases.h).
#include "sampling/simprof/phases.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "common/error.h"
#include "sampling/numeric/silhouette.h"

namespace strobe::sampling::simprof {

namespace {

/// Population mean and standard deviation.
std::pair<double, double> mean_sd(std::span<const double> v) {
  if (v.empty()) return {0, 0};
  double m = 0;
  for (double x : v) m += x;
  m /= double(v.size());
  double ss = 0;
  for (double x : v) ss += (x - m) * (x - m);
  return {m, std::sqrt(ss / double(v.size()))};
}

double cov(std::span<const double> v) {
  const auto [m, sd] = mean_sd(v);
  return m != 0 ? sd / std::abs(m) : 0;
}

}  // namespace

Signatures code_signatures(std::span<const UnitCode> units, double kernel_weight) {
  // Columns in a fixed order: kernels by name, then their blocks by PC, so the same profile
  // always gives the same matrix.
  std::map<std::pair<std::string_view, uint64_t>, size_t> block_col;
  std::map<std::string_view, size_t> kernel_col;
  for (const UnitCode& u : units) {
    kernel_col[u.kernel];
    for (uint64_t pc : u.start_pc) block_col[{u.kernel, pc}];
  }
  Signatures s;
  size_t c = 0;
  for (auto& [key, index] : block_col) {
    index = c++;
    s.names.push_back(fmt::format("{}@{}", key.first, key.second));
  }
  for (auto& [kernel, index] : kernel_col) {
    index = c++;
    s.names.push_back("kernel:" + std::string(kernel));
  }
  s.x = Eigen::MatrixXd::Zero(Eigen::Index(units.size()), Eigen::Index(c));
  double largest = 0;
  for (size_t i = 0; i < units.size(); ++i) {
    const UnitCode& u = units[i];
    for (size_t b = 0; b < u.start_pc.size(); ++b) {
      s.x(Eigen::Index(i), Eigen::Index(block_col.at({u.kernel, u.start_pc[b]}))) = double(u.insts[b]);
      largest = std::max(largest, double(u.insts[b]));
    }
  }
  const double indicator = kernel_weight > 0 && largest > 0 ? kernel_weight * largest : 1;
  for (size_t i = 0; i < units.size(); ++i) s.x(Eigen::Index(i), Eigen::Index(kernel_col.at(units[i].kernel))) = indicator;
  return s;
}

UnitCode launch_code(const profile::LaunchRecord& l, size_t i, const std::string& source) {
  namespace col = profile::column;
  const auto* starts = l.blocks.find_u64(col::kStartPc);
  const auto* insts = l.blocks.find_u64(col::kWaveInsts);
  if (!starts || !insts)
    throw InputError(fmt::format("{} has no basic-block vector for launch {} ({}): it was written before strobe "
                                 "recorded them; profile again",
                                 source, i, l.id.kernel));
  return {l.id.kernel, *starts, *insts};
}

Signatures launch_signatures(std::span<const profile::LaunchRecord> launches, const std::string& source) {
  std::vector<UnitCode> units;
  for (size_t i = 0; i < launches.size(); ++i) units.push_back(launch_code(launches[i], i, source));
  return code_signatures(units);
}

Phases form_phases(const Signatures& sig, std::span<const double> proxy_cpi, const PhaseOptions& o) {
  Phases p;
  const Eigen::Index n = sig.x.rows();
  std::vector<size_t> keep;
  if (!proxy_cpi.empty() && o.features > 0) {
    if (proxy_cpi.size() != size_t(n))
      throw std::invalid_argument("simprof: one proxy CPI per unit is needed for feature selection");
    Eigen::VectorXd y(n);
    for (Eigen::Index i = 0; i < n; ++i) y(i) = proxy_cpi[size_t(i)];
    keep = select_k_best(sig.x, y, o.features).columns;
    p.selected = true;
  }
  // Nothing kept (no proxy, or no column varies): cluster on every column.
  if (keep.empty())
    for (Eigen::Index c = 0; c < sig.x.cols(); ++c) keep.push_back(size_t(c));
  p.features.resize(n, Eigen::Index(keep.size()));
  for (size_t j = 0; j < keep.size(); ++j) {
    p.features.col(Eigen::Index(j)) = sig.x.col(Eigen::Index(keep[j]));
    p.kept.push_back(sig.names[keep[j]]);
  }
  const SilhouetteChoice choice = choose_k_by_silhouette(p.features, o.max_phases, o.silhouette_fraction, o.seed, o.restarts);
  p.k = std::max(1, choice.k);
  p.silhouettes = choice.scores;
  p.fallback = choice.fallback;
  p.phase = choice.clustering.labels;
  if (p.phase.size() != size_t(n)) p.phase.assign(size_t(n), 0);
  // Centres as the phases' means (k = 1 without clustering: the mean of every unit).
  p.centres = Eigen::MatrixXd::Zero(p.k, p.features.cols());
  std::vector<double> count(size_t(p.k), 0);
  for (Eigen::Index i = 0; i < n; ++i) {
    p.centres.row(p.phase[size_t(i)]) += p.features.row(i);
    ++count[size_t(p.phase[size_t(i)])];
  }
  for (int h = 0; h < p.k; ++h)
    if (count[size_t(h)] > 0) p.centres.row(h) /= count[size_t(h)];
  p.nearest.assign(size_t(p.k), 0);
  std::vector<double> best(size_t(p.k), std::numeric_limits<double>::infinity());
  for (Eigen::Index i = 0; i < n; ++i) {
    const int h = p.phase[size_t(i)];
    const double d = (p.features.row(i) - p.centres.row(h)).squaredNorm();
    if (d < best[size_t(h)]) best[size_t(h)] = d, p.nearest[size_t(h)] = size_t(i);  // ties: earliest
  }
  return p;
}

Homogeneity homogeneity(std::span<const double> metric, const Phases& phases) {
  Homogeneity h;
  h.population_cov = cov(metric);
  std::vector<std::vector<double>> by(size_t(phases.k));
  for (size_t i = 0; i < metric.size(); ++i) by[size_t(phases.phase[i])].push_back(metric[i]);
  for (const auto& v : by) {
    if (v.empty()) continue;
    const double c = cov(v);
    h.weighted_cov += c * double(v.size()) / double(metric.size());
    h.max_phase_cov = std::max(h.max_phase_cov, c);
  }
  return h;
}

}  // namespace strobe::sampling::simprof
