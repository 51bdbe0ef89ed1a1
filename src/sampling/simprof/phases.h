// SimProf's phase formation (dissertation §5.3.2; METHODS.md §3.2, §3.8) for GPU sampling units:
// a code signature per unit (its basic-block vector and a kernel indicator, in place of JVM
// call-stack snapshots), the features most correlated with a per-unit proxy CPI, and k-means
// with the silhouette's 90%-of-best rule for k.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "sampling/numeric/feature_select.h"
#include "sampling/profile/profile_file.h"

namespace strobe::sampling::simprof {

/// The code signatures of a set of units: one row per unit, one column per feature.
struct Signatures {
  Eigen::MatrixXd x;
  /// Per column what it counts: "KERNEL@PC" (wave instructions executed in the basic block of
  /// KERNEL starting at instruction PC) or "kernel:KERNEL" (1 for a unit of that kernel).
  std::vector<std::string> names;
};

/// The code a unit ran: its kernel and its basic-block vector (blocks by first instruction, and
/// the wave instructions executed in each).
struct UnitCode {
  std::string_view kernel;
  std::span<const uint64_t> start_pc, insts;
};

/// Signatures of units from their code: each unit's basic-block vector (raw counts, as
/// METHODS.md reads the paper: units of unequal size then separate by size as well as by code)
/// and a one-hot of its kernel. A launch and a range of another launch's work-groups that ran
/// the same blocks share columns. `kernel_weight` scales the kernel indicator: 0 leaves it 1
/// (beside block counts in the millions it then separates nothing); w > 0 makes it w times the
/// largest block count of any unit, so units of different kernels are at least that far apart.
Signatures code_signatures(std::span<const UnitCode> units, double kernel_weight = 0);

/// A launch's code as a unit; throws InputError naming `source` and launch `i` when the record
/// has no block table (a profile written before basic-block vectors).
UnitCode launch_code(const profile::LaunchRecord& launch, size_t i, const std::string& source);

/// Signatures of kernel launches as units: each launch's basic-block vector (raw counts, as
/// METHODS.md reads the paper: units of unequal size then separate by size as well as by code)
/// and a one-hot of its kernel. Throws InputError naming `source` when a launch has no block
/// table (a profile written before basic-block vectors).
Signatures launch_signatures(std::span<const profile::LaunchRecord> launches, const std::string& source);

/// How phases are formed.
struct PhaseOptions {
  size_t features = 100;             ///< K: features kept by feature selection (0: keep all)
  int max_phases = 20;               ///< k is chosen among 2..max_phases
  double silhouette_fraction = 0.9;  ///< the smallest k scoring at least this share of the best
  uint64_t seed = 1;
  int restarts = 5;                  ///< k-means restarts per k
};

/// The phases of a set of units and how they were chosen.
struct Phases {
  std::vector<int> phase;      ///< per unit, in [0, k)
  int k = 1;
  Eigen::MatrixXd centres;     ///< k x kept features: the phase centres (for CODE and the sensitivity test)
  Eigen::MatrixXd features;    ///< units x kept features: the signatures clustered
  std::vector<std::string> kept;  ///< names of the kept features, most correlated first
  /// Whether feature selection ran (a per-unit proxy CPI was given); without one every
  /// feature is clustered.
  bool selected = false;
  std::vector<double> silhouettes;  ///< mean silhouette for k = 2, 3, ...
  std::string fallback;             ///< why k = 1 was taken without the rule ("" when it chose)
  /// The unit nearest its phase's centre, per phase (CODE's simulation points).
  std::vector<size_t> nearest;
};

/// Phase formation on `sig`: with `proxy_cpi` (one value per unit) the K features most
/// correlated with it, else every feature; then the silhouette rule's k-means.
Phases form_phases(const Signatures& sig, std::span<const double> proxy_cpi, const PhaseOptions& o);

/// Homogeneity of phases in a per-unit metric [D §5.3.2.1]: the population CoV, the per-phase
/// CoV weighted by unit count, and the largest per-phase CoV (population standard deviations).
struct Homogeneity {
  double population_cov = 0;
  double weighted_cov = 0;
  double max_phase_cov = 0;
};

/// Homogeneity of `metric` (one value per unit) over `phases`.
Homogeneity homogeneity(std::span<const double> metric, const Phases& phases);

}  // namespace strobe::sampling::simprof
