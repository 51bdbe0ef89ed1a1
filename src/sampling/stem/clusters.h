// STEM's sample sizes and ROOT's recursive splitting: a pure function of each launch's group and
// signature, so that the clusters and sample sizes can be checked against the public
// reimplementation (STEM-AE figure7/sampling_methods/stem.py) directly.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sampling/stem/params.h"

namespace strobe::sampling::stem {

/// What STEM knows of a launch before simulating it.
struct LaunchRow {
  std::string group;      ///< its first grouping's key (kernel, or kernel and geometry)
  double signature = 0;   ///< the proxy of its time (wave instructions)
};

/// One cluster: launches whose signatures ROOT kept together, and its sample size.
struct Cluster {
  std::string group;             ///< the first grouping it came from
  std::vector<size_t> launches;  ///< in program order
  double mean = 0, sd = 0;       ///< of the signatures (population standard deviation)
  uint64_t design = 0;           ///< the sample size the design asked for (may exceed the launches)
  /// The launches to simulate: min(design, launches), and at least one.
  uint64_t samples() const;
};

/// STEM's sample size for a cluster whose signatures have mean `mean` and population standard
/// deviation `sd`: ⌈(z·sd / (error·mean))²⌉ (0 when sd is 0; 1 when mean is not positive).
uint64_t stem_sample_size(double mean, double sd, double z, double error);

/// The clusters of `launches` (program order): grouped by key (in order of first launch), with
/// `p.first_apart` each group's first launch taken out as a cluster of its own, each
/// group kept whole (`p.root` off) or split by ROOT: in two by the optimal 1-D 2-means of the
/// signatures, the parts' sample sizes allocated as n_i ∝ N_i σ_i / √μ_i scaled to meet the
/// bound, the split kept when Σ n_i μ_i does not exceed the whole's n μ, and each kept part split
/// again. A group's clusters are in increasing signature.
std::vector<Cluster> root_clusters(std::span<const LaunchRow> launches, const Params& p);

/// The launches of `c` to simulate (c.samples() of them, in program order), drawn uniformly
/// without replacement from the stream of `seed` and the cluster's index `index`.
std::vector<size_t> draw(const Cluster& c, uint64_t seed, size_t index);

/// The launches of `c` in a uniformly random order from the stream of `seed` and the cluster's
/// index `index`: any prefix is a uniform random sample without replacement, so a sample grown
/// by taking more of the order stays one.
std::vector<size_t> random_order(const Cluster& c, uint64_t seed, size_t index);

/// The two-stage sample size of each cluster (Stein's procedure with STEM's allocation): from
/// the cycles `sd[i]` and mean `mean[i]` measured on cluster i's first sample (N[i] launches),
/// the allocation that minimises Σ n_i μ_i subject to the total's variance Σ N_i² σ_i² / n_i
/// meeting (error·T / z)², T = Σ N_i μ_i; each at most N[i]. A cluster whose mean is not
/// positive gets 0.
std::vector<uint64_t> two_stage_sizes(std::span<const uint64_t> N, std::span<const double> mean,
                                      std::span<const double> sd, double z, double error);

}  // namespace strobe::sampling::stem
