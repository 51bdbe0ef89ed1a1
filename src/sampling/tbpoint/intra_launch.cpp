// TBPoint's homogeneous-region identification.
#include "sampling/tbpoint/intra_launch.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sampling/numeric/hierarchical.h"

namespace strobe::sampling::tbpoint {

double coefficient_of_variation(std::span<const double> values) {
  if (values.empty()) return 0;
  double mean = 0;
  for (double v : values) mean += v;
  mean /= static_cast<double>(values.size());
  if (mean == 0) return 0;
  double var = 0;
  for (double v : values) var += (v - mean) * (v - mean);
  // Population form, as for the inter-launch CV: the epoch's groups are all of it.
  return std::sqrt(var / static_cast<double>(values.size())) / mean;
}

double stall_probability(const WorkGroupCounts& g) {
  return g.wave_insts == 0 ? 0 : static_cast<double>(g.mem_reqs) / static_cast<double>(g.wave_insts);
}

std::vector<Epoch> make_epochs(std::span<const WorkGroupCounts> groups, uint32_t occupancy,
                               double variation_factor_threshold) {
  if (occupancy == 0) throw std::invalid_argument("tbpoint: system occupancy must be at least one work-group");
  std::vector<Epoch> out;
  std::vector<double> x, y;
  for (size_t first = 0; first < groups.size(); first += occupancy) {
    Epoch e;
    e.first_wg = first;
    e.last_wg = std::min(groups.size(), first + occupancy) - 1;
    x.clear();
    y.clear();
    double p = 0;
    for (size_t b = e.first_wg; b <= e.last_wg; ++b) {
      p += stall_probability(groups[b]);
      x.push_back(static_cast<double>(groups[b].mem_reqs));
      y.push_back(static_cast<double>(groups[b].wave_insts));
    }
    // Eq. 5: the mean of per-group ratios, not the ratio of the epoch's sums.
    e.stall_probability = p / static_cast<double>(x.size());
    e.variation_factor = std::max(coefficient_of_variation(x), coefficient_of_variation(y));
    e.outlier = e.variation_factor > variation_factor_threshold;
    out.push_back(e);
  }
  return out;
}

const Region& RegionTable::region_of(size_t wg) const {
  auto it = std::upper_bound(regions.begin(), regions.end(), wg,
                             [](size_t w, const Region& r) { return w < r.first_wg; });
  if (it == regions.begin() || wg > std::prev(it)->last_wg)
    throw std::out_of_range("tbpoint: work-group outside the region table");
  return *std::prev(it);
}

RegionTable find_regions(const LaunchProfile& launch, uint32_t occupancy, const Params& params) {
  RegionTable t;
  t.occupancy = occupancy;
  t.epochs = make_epochs(launch.groups, occupancy, params.variation_factor);
  std::vector<double> p;
  for (const Epoch& e : t.epochs) p.push_back(e.stall_probability);
  // The 1-D variant: a launch can have tens of thousands of epochs, too many for a distance
  // matrix. Outliers take part in the clustering and are moved out afterwards, as in the paper.
  const ClusterLabels labels = complete_linkage_1d(p, params.sigma_intra);
  int next = labels.k;
  for (size_t j = 0; j < t.epochs.size(); ++j) t.epochs[j].cluster = t.epochs[j].outlier ? next++ : labels.labels[j];

  for (size_t j = 0; j < t.epochs.size(); ++j) {
    const Epoch& e = t.epochs[j];
    if (j > 0 && e.cluster == t.regions.back().cluster) {
      t.regions.back().last_wg = e.last_wg;
      ++t.regions.back().epochs;
      continue;
    }
    Region r;
    r.id = static_cast<int>(t.regions.size());
    r.cluster = e.cluster;
    r.first_wg = e.first_wg;
    r.last_wg = e.last_wg;
    r.first_epoch = j;
    r.epochs = 1;
    r.samplable = !e.outlier;
    t.regions.push_back(r);
  }
  return t;
}

}  // namespace strobe::sampling::tbpoint
