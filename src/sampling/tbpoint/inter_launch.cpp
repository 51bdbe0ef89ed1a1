// TBPoint's inter-launch sampling.
#include "sampling/tbpoint/inter_launch.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

#include "sampling/numeric/hierarchical.h"

namespace strobe::sampling::tbpoint {
namespace {

/// Launch indices per scope, scopes in order of their first launch so numbering is stable.
std::vector<std::vector<size_t>> scopes(std::span<const LaunchProfile> launches, bool cross_kernel) {
  std::vector<std::vector<size_t>> out;
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < launches.size(); ++i) {
    const std::string key = cross_kernel ? std::string() : launches[i].kernel;
    const auto [it, fresh] = index.try_emplace(key, out.size());
    if (fresh) out.emplace_back();
    out[it->second].push_back(i);
  }
  return out;
}

}  // namespace

double cv_group_size(const LaunchProfile& launch) {
  const size_t n = launch.groups.size();
  if (n == 0) return 0;
  double mean = 0;
  for (const auto& g : launch.groups) mean += static_cast<double>(g.thread_insts);
  mean /= static_cast<double>(n);
  if (mean == 0) return 0;
  double var = 0;
  for (const auto& g : launch.groups) {
    const double d = static_cast<double>(g.thread_insts) - mean;
    var += d * d;
  }
  // Population standard deviation: the groups are the whole launch, not a sample of it.
  return std::sqrt(var / static_cast<double>(n)) / mean;
}

Eigen::MatrixXd launch_features(std::span<const LaunchProfile> launches, bool cross_kernel) {
  Eigen::MatrixXd f(static_cast<Eigen::Index>(launches.size()), kLaunchFeatures);
  for (size_t i = 0; i < launches.size(); ++i) {
    const auto r = static_cast<Eigen::Index>(i);
    f(r, kThreadInsts) = static_cast<double>(launches[i].thread_insts());
    f(r, kWaveInsts) = static_cast<double>(launches[i].wave_insts());
    f(r, kMemReqs) = static_cast<double>(launches[i].mem_reqs());
    f(r, kCvGroupSize) = cv_group_size(launches[i]);
  }
  for (const auto& scope : scopes(launches, cross_kernel)) {
    for (int c = kThreadInsts; c <= kMemReqs; ++c) {
      double avg = 0;
      for (size_t i : scope) avg += f(static_cast<Eigen::Index>(i), c);
      avg /= static_cast<double>(scope.size());
      for (size_t i : scope) {
        double& v = f(static_cast<Eigen::Index>(i), c);
        v = avg == 0 ? 0 : v / avg;  // e.g. a kernel with no global memory traffic at all
      }
    }
  }
  return f;
}

LaunchClusters cluster_launches(std::span<const LaunchProfile> launches, const Params& params, Ties ties) {
  LaunchClusters out;
  out.features = launch_features(launches, params.cross_kernel);
  out.cluster.assign(launches.size(), -1);
  // Cluster each scope on its own rows; collect (first launch, members) so the final numbering
  // follows each cluster's first launch whatever the scope order.
  std::vector<std::vector<size_t>> found;
  for (const auto& scope : scopes(launches, params.cross_kernel)) {
    Eigen::MatrixXd rows(static_cast<Eigen::Index>(scope.size()), kLaunchFeatures);
    for (size_t r = 0; r < scope.size(); ++r)
      rows.row(static_cast<Eigen::Index>(r)) = out.features.row(static_cast<Eigen::Index>(scope[r]));
    const ClusterLabels labels = complete_linkage(rows, params.sigma_inter);
    std::vector<std::vector<size_t>> local(static_cast<size_t>(labels.k));
    for (size_t r = 0; r < scope.size(); ++r) local[static_cast<size_t>(labels.labels[r])].push_back(scope[r]);
    for (auto& m : local) found.push_back(std::move(m));
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.front() < b.front(); });
  out.members = std::move(found);
  for (size_t k = 0; k < out.members.size(); ++k) {
    const auto& m = out.members[k];
    Eigen::RowVectorXd centroid = Eigen::RowVectorXd::Zero(kLaunchFeatures);
    for (size_t i : m) centroid += out.features.row(static_cast<Eigen::Index>(i));
    centroid /= static_cast<double>(m.size());
    std::vector<double> dist;
    for (size_t i : m) {
      out.cluster[i] = static_cast<int>(k);
      dist.push_back((out.features.row(static_cast<Eigen::Index>(i)) - centroid).squaredNorm());
    }
    // Earliest: the first launch at the smallest distance, compared exactly (the paper's rule).
    // Middle: identical rows may sit a rounding error apart from the centroid, so launches
    // within a tolerance of the nearest count as tied, and the middle one of them is taken.
    const auto nearest_it = std::min_element(dist.begin(), dist.end());
    if (ties == Ties::Earliest) {
      out.representative.push_back(m[size_t(nearest_it - dist.begin())]);
      continue;
    }
    std::vector<size_t> tied;
    for (size_t j = 0; j < m.size(); ++j)
      if (dist[j] <= *nearest_it + 1e-12) tied.push_back(m[j]);
    out.representative.push_back(tied[tied.size() / 2]);
  }
  return out;
}

std::vector<double> extrapolate_cycles(const LaunchClusters& clusters, std::span<const LaunchProfile> launches,
                                       std::span<const double> rep_cycles) {
  if (rep_cycles.size() != clusters.members.size())
    throw std::invalid_argument("tbpoint: one measured cycle count per cluster representative");
  std::vector<double> out(launches.size(), 0);
  for (size_t k = 0; k < clusters.members.size(); ++k) {
    const size_t rep = clusters.representative[k];
    const auto rep_insts = static_cast<double>(launches[rep].wave_insts());
    for (size_t p : clusters.members[k]) {
      // A launch without instructions has no CPI to scale by; it can only be given its
      // representative's time (every real launch issues at least s_endpgm per wave).
      out[p] = p == rep || rep_insts == 0 ? rep_cycles[k]
                                          : rep_cycles[k] / rep_insts * static_cast<double>(launches[p].wave_insts());
    }
  }
  return out;
}

std::vector<double> cluster_weights(const LaunchClusters& clusters, std::span<const LaunchProfile> launches) {
  double total = 0;
  for (const auto& l : launches) total += static_cast<double>(l.wave_insts());
  std::vector<double> w;
  for (const auto& m : clusters.members) {
    double s = 0;
    for (size_t p : m) s += static_cast<double>(launches[p].wave_insts());
    w.push_back(total == 0 ? 0 : s / total);
  }
  return w;
}

LaunchClusters singleton_clusters(std::span<const LaunchProfile> launches, const Params& params) {
  LaunchClusters out;
  out.features = launch_features(launches, params.cross_kernel);
  for (size_t i = 0; i < launches.size(); ++i) {
    out.cluster.push_back(int(i));
    out.members.push_back({i});
    out.representative.push_back(i);
  }
  return out;
}

}  // namespace strobe::sampling::tbpoint
