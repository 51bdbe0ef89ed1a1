// TBPoint's inter-launch sampling [T §III]: cluster kernel launches on a 4-D feature vector,
// simulate one representative per cluster, extrapolate the rest by instruction count.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include <Eigen/Core>

#include "sampling/tbpoint/launch_profile.h"
#include "sampling/tbpoint/params.h"

namespace strobe::sampling::tbpoint {

/// Columns of the inter-launch feature matrix, in the paper's order (Eq. 2).
enum LaunchFeature : int { kThreadInsts = 0, kWaveInsts, kMemReqs, kCvGroupSize, kLaunchFeatures };

/// Coefficient of variation (population standard deviation / mean) of the launch's per-group
/// thread instructions: the paper's CV of thread-block size. 0 with no groups or a zero mean.
double cv_group_size(const LaunchProfile& launch);

/// The feature matrix (one row per launch, kLaunchFeatures columns): thread instructions, wave
/// instructions and memory requests, each divided by its average over the launches in the same
/// scope, then the CV of group size, not normalised. The scope is the launch's kernel, or every
/// launch with `cross_kernel`. A feature whose average over its scope is 0 is 0 for the scope.
Eigen::MatrixXd launch_features(std::span<const LaunchProfile> launches, bool cross_kernel);

/// The outcome of inter-launch clustering.
struct LaunchClusters {
  Eigen::MatrixXd features;                  ///< launch_features(), one row per launch
  std::vector<int> cluster;                  ///< per launch, its cluster in [0, members.size())
  std::vector<std::vector<size_t>> members;  ///< per cluster, its launches in launch order
  std::vector<size_t> representative;        ///< per cluster, the member nearest its centroid
};

/// Which of the members tied nearest a centroid represents the cluster (identical launches, a
/// kernel launched again and again on the same sizes, all tie).
enum class Ties : uint8_t {
  /// The earliest. Without functional warming the representative is the first launch simulated
  /// in detail and starts with cold caches wherever it sits, so a later one gains nothing.
  Earliest,
  /// The middle one in launch order (the later of two). With functional warming the launches
  /// before it leave the caches warm, as most of the tied launches find them; the first is the
  /// only one that starts cold.
  Middle,
};

/// Complete-linkage clustering at params.sigma_inter within each scope (same kernel unless
/// params.cross_kernel). Clusters never span scopes; they are numbered in order of their first
/// launch. The representative is the member nearest the centroid (Euclidean), `ties` choosing
/// among members at that distance.
LaunchClusters cluster_launches(std::span<const LaunchProfile> launches, const Params& params,
                                Ties ties = Ties::Earliest);

/// Every launch a cluster of its own and its own representative, with the same feature matrix:
/// what sampling without inter-launch clustering (`tbpoint-intra`) works with.
LaunchClusters singleton_clusters(std::span<const LaunchProfile> launches, const Params& params);

/// Instruction-weighted extrapolation [T Table IV]: every launch p of cluster k is predicted at
/// CPI_rep(k) × wave_insts_p, with CPI_rep(k) = rep_cycles[k] / the representative's wave
/// instructions; a representative gets exactly its measured cycles. One rep_cycles per cluster.
std::vector<double> extrapolate_cycles(const LaunchClusters& clusters, std::span<const LaunchProfile> launches,
                                       std::span<const double> rep_cycles);

/// Table IV's cluster weights: Σ_{p∈k} wave_insts_p / Σ_all wave_insts, per cluster.
std::vector<double> cluster_weights(const LaunchClusters& clusters, std::span<const LaunchProfile> launches);

}  // namespace strobe::sampling::tbpoint
