// GPUMech's representative wave [D §4.3.3, Eqs. 14-15, METHODS.md §2.3]: k-means with k = 2
// on each wave's [performance, instructions], both normalised by their means.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include <Eigen/Core>

#include "sampling/gpumech/interval.h"
#include "sampling/gpumech/model_params.h"

namespace strobe::sampling::gpumech {

/// The representative and what chose it.
struct Representative {
  size_t wave = 0;               ///< index of the chosen wave
  Eigen::MatrixXd features;      ///< Eq. 15 per wave with instructions (rows follow `considered`)
  std::vector<size_t> considered;///< waves with at least one instruction, in input order
  std::vector<int> cluster;      ///< k-means label per considered wave (empty unless Clustering)
  int majority = -1;             ///< label of the larger cluster (-1 unless Clustering)
};

/// What the representative choice reads of one wave: Eq. 15's features before normalisation.
struct WaveSummary {
  uint64_t insts = 0;  ///< Σ #interval_insts
  double perf = 0;     ///< wave_perf (Eq. 14)
};

/// The summary of one wave's interval profile.
WaveSummary summarize(const IntervalProfile& profile, double issue_rate);

/// Eq. 15 per wave: [wave_perf / mean wave_perf, insts / mean insts], one row per profile.
/// Every profile must hold at least one instruction.
Eigen::MatrixXd wave_features(std::span<const IntervalProfile> profiles, double issue_rate);

/// Chooses the representative among `profiles` (waves without instructions are skipped):
/// Clustering runs k-means (k = 2, k-means++ seeding) kmeans_restarts times from kmeans_seed,
/// keeps the lowest inertia, and takes the wave nearest the centroid of the cluster with more
/// waves (ties: the lower label, then the earlier wave); MaxPerf and MinPerf take the wave with
/// the highest or lowest wave_perf (ties: the earlier wave). Throws std::invalid_argument when
/// no wave has an instruction.
Representative choose_representative(std::span<const IntervalProfile> profiles, const ModelParams& params);
/// The same choice from each wave's summary (what predict() keeps of a wave once it is profiled).
Representative choose_representative(std::span<const WaveSummary> waves, const ModelParams& params);

}  // namespace strobe::sampling::gpumech
