// TBPoint's homogeneous-region identification [T §IV-B1]: cut a launch's work-groups into
// epochs of system-occupancy size, cluster the epochs on their stall probability, and join
// consecutive epochs of one cluster into regions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "sampling/tbpoint/launch_profile.h"
#include "sampling/tbpoint/params.h"

namespace strobe::sampling::tbpoint {

/// Population coefficient of variation of `values` (0 when empty or the mean is 0).
double coefficient_of_variation(std::span<const double> values);

/// One epoch: `occupancy` consecutive work-groups, the ones resident together (Eq. 4).
struct Epoch {
  size_t first_wg = 0, last_wg = 0;  ///< work-group IDs, inclusive; the last epoch may be partial
  double stall_probability = 0;      ///< mean over its groups of mem_reqs / wave_insts (Eq. 5)
  double variation_factor = 0;       ///< max(CoV(mem_reqs), CoV(wave_insts)) over its groups
  bool outlier = false;              ///< variation_factor > Params::variation_factor
  int cluster = 0;                   ///< after outlier removal; outliers hold a cluster alone
};

/// A homogeneous region: a maximal run of consecutive epochs of one cluster (a row of Table III).
struct Region {
  int id = 0;                        ///< index in RegionTable::regions, unique per run of epochs
  int cluster = 0;                   ///< the epochs' cluster (the paper's region ID)
  size_t first_wg = 0, last_wg = 0;  ///< work-group IDs, inclusive
  size_t first_epoch = 0, epochs = 0;
  /// Whether run-time sampling may enter it; false for an outlier epoch's region, which must be
  /// simulated in detail (it could never pass warming anyway: it is one epoch of odd groups).
  bool samplable = true;
};

/// The homogeneous-region table of one launch for one system occupancy.
struct RegionTable {
  uint32_t occupancy = 0;       ///< epoch size the table was built for
  std::vector<Epoch> epochs;    ///< in work-group order
  std::vector<Region> regions;  ///< in work-group order, covering every group exactly once
  /// The region holding work-group `wg` (binary search; wg must be < the launch's group count).
  const Region& region_of(size_t wg) const;
};

/// The stall probability of one group: mem_reqs / wave_insts (can exceed 1 for divergent
/// accesses: up to 64 lines per wave instruction on GCN3); 0 for a group without instructions.
double stall_probability(const WorkGroupCounts& g);

/// Epochs of `occupancy` groups with their feature and variation factor; outlier flags are set
/// from `variation_factor_threshold`, clusters left at 0. Throws if occupancy is 0.
std::vector<Epoch> make_epochs(std::span<const WorkGroupCounts> groups, uint32_t occupancy,
                               double variation_factor_threshold);

/// Builds the region table: epochs of `occupancy` groups (the work-groups resident at once on
/// the configured GPU, so the table is rebuilt per configuration), complete linkage at
/// params.sigma_intra on the 1-D stall probability, then outlier epochs moved to clusters of
/// their own, then maximal runs of equal cluster as regions.
RegionTable find_regions(const LaunchProfile& launch, uint32_t occupancy, const Params& params);

}  // namespace strobe::sampling::tbpoint
