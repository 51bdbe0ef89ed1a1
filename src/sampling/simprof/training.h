// SimProf's input-sensitivity workflow across runs (dissertation §5.3.4; METHODS.md §3.6): a
// run on the training input saves what it learned (its phase centres, each phase's proxy-CPI
// moments and its measured cycles per instruction), and a run on another input reads it back,
// classifies its own units to the nearest centre, applies Eq. 38 per phase, and simulates only
// the sensitive phases; an insensitive phase's cycles are the training's cycles per instruction
// times the new input's instructions in it.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json_fwd.hpp>

#include "sampling/numeric/stratified.h"
#include "sampling/simprof/phases.h"
#include "sampling/simprof/sensitivity.h"

namespace strobe::sampling::simprof {

/// A phase's ratio of cycles to an auxiliary value known for every unit (its wave instructions,
/// or GPUMech's predicted cycles), from its measured units: Cochran's ratio estimator on one
/// stratum.
struct RatioFit {
  double ratio = 0;  ///< R̂ = Σ cycles / Σ x over the measured units
  double se = 0;     ///< SE(R̂): the ratio estimator's standard error of the total over X
  /// The degrees of freedom of se (infinite when the phase was measured whole).
  double df = std::numeric_limits<double>::infinity();
};

/// The ratio estimator of the cycles `y` on `x` of a phase's measured units, the phase having
/// `units` units whose x sum to `x_total`. No measured unit, or no x: a ratio of 0.
RatioFit fit_ratio(uint64_t units, std::span<const double> y, std::span<const double> x, double x_total);

/// One phase of the training input.
struct TrainedPhase {
  PhaseMoments metric;   ///< the proxy's CPI over the phase's units: Eq. 38's training side
  uint64_t units = 0;    ///< N_h
  uint64_t sampled = 0;  ///< n_h: units measured in detail
  double insts = 0;      ///< X_h: the phase's wave instructions
  double proxy = 0;      ///< the phase's GPUMech-predicted cycles
  RatioFit cpi;          ///< measured cycles per wave instruction
  RatioFit calibration;  ///< measured cycles per GPUMech-predicted cycle
};

/// What a SimProf run on one input hands to runs on others.
struct Training {
  uint64_t unit_insts = 0;   ///< the unit cut it used: a run reusing it must cut the same way
  double kernel_weight = 0;  ///< the signatures' kernel weight, likewise
  std::vector<std::string> features;   ///< the kept signature features, the centres' columns
  Eigen::MatrixXd centres;             ///< phases x features
  std::vector<TrainedPhase> phases;
  std::map<std::string, uint64_t> kernels;  ///< every kernel it saw, with its code hash
};

/// The training as a JSON document (format "strobe-simprof-training", version 2).
std::string encode_training(const Training& t);
/// Parses a training document; InputError naming `name` for malformed JSON, another format or
/// version, or inconsistent sizes.
Training decode_training(std::string_view text, const std::string& name);
/// Writes `t` to `path` atomically; InputError naming the path on failure.
void save_training(const std::string& path, const Training& t);
/// Reads `path`; InputError naming the file and the reason.
Training load_training(const std::string& path);

/// Phase `h`'s training from the units of the training run: `metric` (proxy CPI) of its units,
/// their wave instructions and predicted cycles in all, and the measured units' cycles,
/// instructions and predicted cycles.
TrainedPhase train_phase(std::span<const double> metric, double insts, double proxy,
                         std::span<const double> measured_cycles, std::span<const double> measured_insts,
                         std::span<const double> measured_proxy);

/// The columns of `sig` named by `features`, in that order (a feature `sig` lacks reads 0): a new
/// input's signatures in the training's feature space.
Eigen::MatrixXd project(const Signatures& sig, std::span<const std::string> features);

/// A training applied to a new input's units (Eq. 38 per phase).
struct Reuse {
  /// Per unit: the training phase of the nearest centre, or `phases` (one past the training's)
  /// for a unit of a kernel the training never saw, which no centre describes.
  std::vector<int> phase;
  int phases = 0;                    ///< the training's phase count
  bool unseen = false;               ///< whether some unit is of a kernel the training never saw
  std::vector<PhaseMoments> input;   ///< per training phase: the new input's proxy-CPI moments
  std::vector<Sensitivity> verdict;  ///< per training phase: Eq. 38's
  /// Per training phase: 1 when its cycles are reused (insensitive, present in the new input,
  /// measured in the training), else 0 (simulated afresh).
  std::vector<uint8_t> reused;
};

/// Classifies each unit (signatures `sig`, kernels `kernel`, proxy CPI `metric`) to the
/// training's nearest phase centre and tests every phase with Eq. 38 at `threshold`. The first
/// `exclude_first` units (the cold-start stratum, measured on their own) are classified but left
/// out of the moments. `code` gives the new input's code hash per kernel: a kernel the training
/// saw with other code is an InputError naming `source` (the training file).
Reuse apply_training(const Training& t, const Signatures& sig, std::span<const std::string> kernel,
                     std::span<const double> metric, size_t exclude_first,
                     const std::map<std::string, uint64_t>& code, const std::string& source,
                     double threshold = 0.10);

/// What a reused phase's cycles on the new input scale with.
enum class ReuseBy : uint8_t {
  /// GPUMech's predicted cycles of the new input's units in the phase, times the training's
  /// measured cycles per predicted cycle: the model carries each unit's size and mix, the
  /// training corrects its bias.
  Proxy,
  /// The new input's wave instructions in the phase, times the training's measured cycles per
  /// instruction.
  Cpi,
};
/// `reuse_by`'s value names, in value order.
inline std::vector<std::string> param_choices(ReuseBy) { return {"proxy", "cpi"}; }

/// A reused phase's cycles on the new input: the training's ratio `f` times the new input's
/// total `x` of its auxiliary value in the phase, with the variance that R̂ carries.
EstimatedPart transferred(const RatioFit& f, double x);

/// The report of a reuse: per training phase, both inputs' moments, Eq. 38's verdict, and for a
/// reused phase its cycles; then what was reused in all. `insts` and `units` are the new input's
/// per training phase (the unseen kernels' stratum, if any, last), and `part` a reused phase's
/// estimated cycles; `source` names the training.
nlohmann::json describe_reuse(const Reuse& r, const Training& t, std::span<const double> insts,
                              std::span<const uint64_t> units, std::span<const EstimatedPart> part,
                              const std::string& source, double threshold);

}  // namespace strobe::sampling::simprof
