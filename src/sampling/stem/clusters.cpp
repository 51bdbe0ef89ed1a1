// STEM's sample sizes and ROOT's splits.
#include "sampling/stem/clusters.h"

#include <algorithm>
#include <cmath>

#include "sampling/common/launch_groups.h"
#include "sampling/numeric/mix.h"
#include "sampling/numeric/stratified.h"
#include "sampling/numeric/two_means.h"

namespace strobe::sampling::stem {

namespace {

/// Mean and population standard deviation of the signatures of `ls`.
std::pair<double, double> moments(std::span<const LaunchRow> rows, std::span<const size_t> ls) {
  double mean = 0;
  for (size_t l : ls) mean += rows[l].signature;
  mean /= double(ls.size());
  double ss = 0;
  for (size_t l : ls) ss += (rows[l].signature - mean) * (rows[l].signature - mean);
  return {mean, ls.size() > 1 ? std::sqrt(ss / double(ls.size())) : 0.0};
}

/// A finished cluster of `ls` (sorted by signature) with sample size `n`.
Cluster leaf(const std::string& group, std::vector<size_t> ls, std::span<const LaunchRow> rows, uint64_t n) {
  Cluster c;
  c.group = group;
  std::tie(c.mean, c.sd) = moments(rows, ls);
  std::sort(ls.begin(), ls.end());
  c.launches = std::move(ls);
  c.design = n;
  return c;
}

/// ROOT on `ls` (sorted by signature), whose design so far is `n` samples costing `simtime`:
/// split in two, allocate, keep the split if it does not cost more, recurse.
void split(const std::string& group, std::vector<size_t> ls, std::span<const LaunchRow> rows, double c, uint64_t n,
           double simtime, std::vector<Cluster>& out) {
  if (ls.size() == 1) return out.push_back(leaf(group, std::move(ls), rows, 1));
  if (simtime == 0) return out.push_back(leaf(group, std::move(ls), rows, n));
  std::vector<double> sig;
  for (size_t l : ls) sig.push_back(rows[l].signature);
  const size_t k = two_means_split(sig);
  if (k == 0) return out.push_back(leaf(group, std::move(ls), rows, n));
  std::vector<size_t> parts[2] = {{ls.begin(), ls.begin() + long(k)}, {ls.begin() + long(k), ls.end()}};
  double mu[2], sd[2], a = 0, total = 0;
  for (int i = 0; i < 2; ++i) {
    std::tie(mu[i], sd[i]) = moments(rows, parts[i]);
    if (!(mu[i] > 0)) return out.push_back(leaf(group, std::move(ls), rows, n));
    a += double(parts[i].size()) * sd[i] * std::sqrt(mu[i]);
    total += double(parts[i].size()) * mu[i];
  }
  // The allocation that minimises the simulated time Σ n_i μ_i subject to the total's variance
  // Σ N_i² σ_i² / n_i meeting (error·T / z)²: n_i = A · (N_i σ_i / √μ_i) / (T / c)².
  uint64_t ni[2];
  double simtime_new = 0;
  for (int i = 0; i < 2; ++i) {
    const double share = double(parts[i].size()) * sd[i] / std::sqrt(mu[i]);
    ni[i] = uint64_t(std::ceil(a / ((total / c) * (total / c)) * share));
    simtime_new += double(ni[i]) * mu[i];
  }
  if (simtime_new > simtime) return out.push_back(leaf(group, std::move(ls), rows, n));
  for (int i = 0; i < 2; ++i) split(group, std::move(parts[i]), rows, c, ni[i], double(ni[i]) * mu[i], out);
}

}  // namespace

uint64_t Cluster::samples() const {
  return std::max<uint64_t>(1, std::min<uint64_t>(design, launches.size()));
}

uint64_t stem_sample_size(double mean, double sd, double z, double error) {
  if (!(mean > 0)) return 1;
  const double r = z * sd / (error * mean);
  return uint64_t(std::ceil(r * r));
}

std::vector<Cluster> root_clusters(std::span<const LaunchRow> launches, const Params& p) {
  const double z = z_for_confidence(p.confidence);
  std::vector<Cluster> out;
  for (auto& [g, ls] : groups_by_first_launch(launches, [](const LaunchRow& r) { return r.group; })) {
    if (p.first_apart && ls.size() > 1) {  // program order: the group's first launch leads
      out.push_back(leaf(g, {ls.front()}, launches, 1));
      ls.erase(ls.begin());
    }
    std::stable_sort(ls.begin(), ls.end(),
                     [&](size_t a, size_t b) { return launches[a].signature < launches[b].signature; });
    const auto [mean, sd] = moments(launches, ls);
    const uint64_t n = ls.size() == 1 ? 1 : stem_sample_size(mean, sd, z, p.error);
    if (!p.root || ls.size() == 1) out.push_back(leaf(g, std::move(ls), launches, n));
    else split(g, std::move(ls), launches, z / p.error, n, double(n) * mean, out);
  }
  return out;
}

std::vector<size_t> draw(const Cluster& c, uint64_t seed, size_t index) {
  std::vector<size_t> out;
  for (uint64_t k : simple_random_sample(c.launches.size(), c.samples(), mix64(seed ^ mix64(index + 1))))
    out.push_back(c.launches[k]);
  return out;
}

std::vector<size_t> random_order(const Cluster& c, uint64_t seed, size_t index) {
  const uint64_t stream = mix64(seed ^ mix64(index + 1)) ^ 0x5354454d5f706c74ull;  // apart from draw()'s
  std::vector<std::pair<uint64_t, size_t>> keyed;
  for (size_t l : c.launches) keyed.push_back({mix64(stream ^ mix64(l + 1)), l});
  std::sort(keyed.begin(), keyed.end());
  std::vector<size_t> out;
  for (const auto& [k, l] : keyed) out.push_back(l);
  return out;
}

std::vector<uint64_t> two_stage_sizes(std::span<const uint64_t> N, std::span<const double> mean,
                                      std::span<const double> sd, double z, double error) {
  double a = 0, total = 0;
  for (size_t i = 0; i < N.size(); ++i) {
    if (!(mean[i] > 0)) continue;
    a += double(N[i]) * sd[i] * std::sqrt(mean[i]);
    total += double(N[i]) * mean[i];
  }
  std::vector<uint64_t> n(N.size(), 0);
  if (!(total > 0)) return n;
  const double budget = (error * total / z) * (error * total / z);
  for (size_t i = 0; i < N.size(); ++i) {
    if (!(mean[i] > 0)) continue;
    const double want = std::ceil(a * double(N[i]) * sd[i] / std::sqrt(mean[i]) / budget);
    n[i] = std::min<uint64_t>(N[i], uint64_t(std::min(want, 1e18)));
  }
  return n;
}

}  // namespace strobe::sampling::stem
