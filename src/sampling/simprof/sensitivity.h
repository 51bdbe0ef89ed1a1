// SimProf's input-sensitivity test (dissertation §5.3.4, Eq. 38; METHODS.md §3.6): the units of a
// new input are classified to the nearest phase centre of the training input, and a phase whose
// per-unit metric moved by more than 10% in mean or in spread is sensitive and re-simulated; the
// others reuse the training input's results.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace strobe::sampling::simprof {

/// The per-unit metric of one phase on one input: how many units, their mean and their
/// (population) standard deviation.
struct PhaseMoments {
  uint64_t units = 0;
  double mean = 0;
  double sd = 0;
};

/// The moments of `values`.
PhaseMoments moments(std::span<const double> values);

/// Eq. 38's verdict on one phase and one reference input.
struct Sensitivity {
  bool sensitive = false;
  std::string reason;  ///< which test flagged it, with the relative change ("" when insensitive)
};

/// Eq. 38: sensitive when |mean_train - mean_ref| / mean_train or |sd_train - sd_ref| / sd_train
/// exceeds `threshold` (10% in the paper). Where the paper's ratios are undefined: a phase no unit
/// of the reference input falls in is not flagged (nothing of it is simulated for that input);
/// a training mean of 0 flags any other mean; a training spread of 0 (or below 1e-9 of the mean:
/// equal values' rounding) compares the spread's change with `threshold` x |mean_train| instead,
/// so rounding noise in a constant phase is not a change.
Sensitivity phase_sensitivity(const PhaseMoments& train, const PhaseMoments& ref, double threshold = 0.10);

/// The nearest row of `centres` (Euclidean; ties to the lower index) for each row of `units`:
/// the unit classification of a new input. Both must have the same columns. Every unit gets a
/// centre when there is one, however far (-1 only without centres).
std::vector<int> nearest_centres(const Eigen::MatrixXd& units, const Eigen::MatrixXd& centres);

/// The phases (0 .. centres.rows() - 1) Eq. 38 flags for at least one reference input. Training:
/// each unit's phase and metric; each reference input: its units' signatures (same features as
/// the centres) and metrics. A phase is insensitive only if no reference input flags it.
std::vector<bool> sensitive_phases(std::span<const int> train_phase, std::span<const double> train_metric,
                                   const Eigen::MatrixXd& centres,
                                   std::span<const Eigen::MatrixXd> ref_signatures,
                                   std::span<const std::vector<double>> ref_metrics, double threshold = 0.10);

}  // namespace strobe::sampling::simprof
