// SimProf's sample (see sample_design.h).
#include "sampling/simprof/sample_design.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sampling/numeric/mix.h"

namespace strobe::sampling::simprof {

std::vector<size_t> Population::members(int h) const {
  std::vector<size_t> m;
  for (size_t i = 0; i < stratum.size(); ++i)
    if (stratum[i] == h) m.push_back(i);
  return m;
}

void proportional_floor(std::vector<uint64_t>& want, const Population& pop, double fraction) {
  if (fraction <= 0 || pop.stratum.empty()) return;
  std::vector<uint64_t> size(size_t(pop.strata), 0);
  for (const int h : pop.stratum) ++size[size_t(h)];
  uint64_t total = 0;
  for (const uint64_t w : want) total += w;
  const double n = double(pop.stratum.size());
  for (size_t h = 0; h < want.size(); ++h) {
    const auto share = uint64_t(std::ceil(fraction * double(total) * double(size[h]) / n - 1e-9));
    want[h] = std::min(size[h], std::max(want[h], share));
  }
}

std::vector<size_t> random_order(size_t n, uint64_t seed) {
  std::vector<size_t> v(n);
  std::iota(v.begin(), v.end(), size_t{0});
  uint64_t s = seed;
  for (size_t i = n; i > 1; --i) std::swap(v[i - 1], v[splitmix64(s) % i]);  // bias < 2^-40 below 2^24 units
  return v;
}

StratifiedDraw::StratifiedDraw(const Population& pop, uint64_t seed) {
  order_.resize(size_t(pop.strata));
  taken_.assign(size_t(pop.strata), 0);
  for (int h = 0; h < pop.strata; ++h) {
    const std::vector<size_t> m = pop.members(h);
    // One stream per stratum: a stratum's draw does not depend on how many others there are.
    for (size_t j : random_order(m.size(), mix64(seed ^ mix64(uint64_t(h) + 1)))) order_[size_t(h)].push_back(m[j]);
  }
}

std::vector<size_t> StratifiedDraw::grow(int h, uint64_t n) {
  auto& t = taken_[size_t(h)];
  const auto& o = order_[size_t(h)];
  const uint64_t to = std::min<uint64_t>(n, o.size());
  std::vector<size_t> added(o.begin() + ptrdiff_t(std::min(t, to)), o.begin() + ptrdiff_t(to));
  t = std::max(t, to);
  return added;
}

uint64_t StratifiedDraw::total() const { return std::accumulate(taken_.begin(), taken_.end(), uint64_t{0}); }

std::vector<StratumDesign> stratum_spreads(const Population& pop, const std::vector<std::vector<size_t>>& units,
                                           std::span<const double> value, Estimator e) {
  std::vector<StratumDesign> out(size_t(pop.strata));
  for (int h = 0; h < pop.strata; ++h) {
    out[size_t(h)].size = pop.members(h).size();
    const auto& u = units[size_t(h)];
    if (u.size() < 2) continue;
    double sy = 0, sx = 0;
    for (size_t i : u) sy += value[i], sx += pop.size[i];
    const double r = sx > 0 ? sy / sx : 0;
    const double mean = sy / double(u.size());
    double ss = 0;
    for (size_t i : u) {
      const double d = e == Estimator::Ratio ? value[i] - r * pop.size[i] : value[i] - mean;
      ss += d * d;
    }
    out[size_t(h)].sd = std::sqrt(ss / double(u.size() - 1));
  }
  return out;
}

std::vector<uint64_t> budget_allocation(std::span<const StratumDesign> strata, double mean, double rel_error, double z,
                                        std::span<const uint64_t> current, uint64_t min_per_stratum) {
  const double n = neyman_sample_size(strata, mean, rel_error, z);
  std::vector<uint64_t> a = neyman_allocation(strata, uint64_t(std::ceil(n - 1e-9)), min_per_stratum);
  for (size_t h = 0; h < a.size() && h < current.size(); ++h) a[h] = std::max(a[h], current[h]);
  return a;
}

StratifiedEstimate estimate_total(const Population& pop, const std::vector<std::vector<size_t>>& units,
                                  std::span<const double> value, Estimator e, double z, std::span<const uint8_t> skip) {
  std::vector<StratumSample> s(size_t(pop.strata));
  for (int h = 0; h < pop.strata; ++h) {
    StratumSample& st = s[size_t(h)];
    if (!skip.empty() && skip[size_t(h)] != 0) continue;  // size 0: the estimators pass over it
    for (size_t i : pop.members(h)) st.aux_total += pop.size[i], ++st.size;
    for (size_t i : units[size_t(h)]) {
      st.values.push_back(value[i]);
      st.aux.push_back(pop.size[i]);
    }
  }
  return e == Estimator::Ratio ? stratified_ratio_estimate(s, z) : stratified_estimate(s, z);
}

}  // namespace strobe::sampling::simprof
