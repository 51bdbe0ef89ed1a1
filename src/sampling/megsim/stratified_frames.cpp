#include "sampling/megsim/stratified_frames.h"

#include <cmath>
#include <stdexcept>

#include "sampling/numeric/mix.h"

namespace strobe::sampling::megsim {

StratifiedFrames draw_stratified_frames(const FrameSelection& s, std::span<const double> proxy, uint64_t n,
                                        uint64_t seed) {
  std::vector<StratumDesign> design;
  StratifiedFrames d;
  for (const FrameCluster& c : s.clusters) {
    double mean = 0, sq = 0;
    for (size_t r : c.members) mean += proxy[r];
    mean /= double(c.members.size());
    for (size_t r : c.members) sq += (proxy[r] - mean) * (proxy[r] - mean);
    const double sd = c.members.size() > 1 ? std::sqrt(sq / double(c.members.size() - 1)) : 0.0;
    design.push_back({c.members.size(), sd});
    d.proxy_sd.push_back(sd);
  }
  const std::vector<uint64_t> alloc = neyman_allocation(design, n, 2);
  for (size_t h = 0; h < s.clusters.size(); ++h) {
    const FrameCluster& c = s.clusters[h];
    std::vector<size_t> rows;
    // Each cluster its own stream, so that one cluster's draw does not move with another's size.
    for (uint64_t i : simple_random_sample(c.members.size(), alloc[h], mix64(seed ^ mix64(h + 1))))
      rows.push_back(c.members[i]);
    d.rows.push_back(std::move(rows));
  }
  return d;
}

StratifiedTotal estimate_stratified_total(const FrameSelection& s, const StratifiedFrames& d,
                                          std::span<const double> proxy, const std::function<double(size_t)>& value,
                                          double confidence) {
  std::vector<StratumSample> strata;
  bool ratio = true;
  for (size_t h = 0; h < s.clusters.size(); ++h) {
    StratumSample st;
    st.size = s.clusters[h].members.size();
    double sampled_aux = 0;
    for (size_t r : d.rows[h]) {
      st.values.push_back(value(r));
      st.aux.push_back(proxy[r]);
      sampled_aux += proxy[r];
    }
    for (size_t r : s.clusters[h].members) st.aux_total += proxy[r];
    if (!(sampled_aux > 0)) ratio = false;
    strata.push_back(std::move(st));
  }
  const double z = z_for_confidence(confidence);
  StratifiedTotal t;
  t.estimator = ratio ? "ratio" : "expansion";
  t.estimate = with_t_interval(ratio ? stratified_ratio_estimate(strata, z) : stratified_estimate(strata, z), confidence);
  return t;
}

}  // namespace strobe::sampling::megsim
