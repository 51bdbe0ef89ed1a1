// The report of a graphics comparison (`strobe compare gfx:...`): every frame in full detail
// against each frame-sampling method. The experiment layer computes every number; these
// structures carry them to the writers (frame_json.h), as comparison.h does for compute.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/comparison.h"
#include "sampling/frame_method.h"

namespace strobe::report {

/// A cost in wall-clock seconds and in the process's CPU seconds: medians over repeats.
struct FrameCost {
  double seconds = 0, cpu_seconds = 0;
};

/// One frame-sampling method against the reference.
struct FrameMethodComparison {
  std::string name;
  sampling::FrameEstimate result;       ///< the last repeat's (every repeat's estimate is the same)
  sampling::FrameMeasure errors{};      ///< signed relative error of each statistic
  /// The method's weights applied to the reference's own values of its frames, and their errors:
  /// the error of the selection alone (present for a weighted estimate).
  std::optional<sampling::FrameMeasure> from_reference, errors_from_reference;
  std::map<std::string, bool> covers_full_detail;  ///< per statistic with an interval
  bool reads_profile = false;           ///< charged the functional profile
  FrameCost profile, selection, detailed, total;
  Spread speedup;                       ///< reference seconds / total seconds, over repeats
  std::vector<double> speedups;         ///< per repeat
  double speedup_detailed_only = 0;     ///< reference seconds / detailed seconds (medians)
  double speedup_cpu = 0;               ///< reference CPU seconds / total CPU seconds (medians)
  /// From a capture: reference seconds / (total seconds + the capture's), the cost of a study of
  /// one configuration (0 without a capture).
  double speedup_one_shot = 0;
  /// Analyses of the comparison beside the method's own (e.g. random-frames' sample size for
  /// MEGsim's error), merged into its JSON.
  nlohmann::json analysis = nlohmann::json::object();
};

/// A frame sequence compared.
struct FrameComparison {
  std::string workload, trace;
  nlohmann::json config;                ///< the GPU configuration
  uint64_t warm_frames = 0;
  int repeat = 1;
  FrameCost reference;                  ///< medians over repeats, or the runs' own
  nlohmann::json reference_source;      ///< "simulated in this process", or {"runs": [...]}
  size_t reference_runs = 0;            ///< files the reference came from (0: simulated here)
  sampling::FrameMeasure totals{};      ///< the reference's
  std::vector<std::pair<uint64_t, sampling::FrameMeasure>> per_frame;  ///< in trace order
  nlohmann::json profile_source;        ///< {"runs": [...]} where the profile came from files, else null
  /// From a frames capture: {"file", "warm_state", "capture_seconds", "bytes"}; else null.
  nlohmann::json capture;
  double capture_seconds = 0;           ///< the capture's own time (one-shot costs include it)
  std::vector<FrameMethodComparison> methods;  ///< in the order asked
};

/// The comparison as JSON (the shape `strobe report` and scripts/eval-megsim read).
nlohmann::json to_json(const FrameComparison& c);

/// The comparison for the terminal: the reference, a line per method and its notes.
std::string frame_comparison_text(const FrameComparison& c);

}  // namespace strobe::report
