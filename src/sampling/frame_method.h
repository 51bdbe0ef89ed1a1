// Frame-sampling methods as plug-ins, the graphics counterpart of method.h: each registers a
// name, its declared parameters (the same MethodParam schema and --sampling-set parser as the
// compute methods) and a factory. A method sees the frames' functional counts and a timer that
// simulates frames it names in detail; the orchestration (the reference, repeats, errors, costs,
// reports) is src/experiment's, so a method is its selection and its estimator and nothing else.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sampling/method.h"

namespace strobe::sampling {

/// The statistics a frame method estimates (METHODS.md §4.6), as JSON spells them.
inline constexpr std::array<const char*, 4> kFrameStatistics = {"cycles", "dram_bytes", "l2_accesses",
                                                                "tile_buffer_accesses"};

/// A value per statistic, in kFrameStatistics' order.
using FrameMeasure = std::array<double, kFrameStatistics.size()>;

/// Each pipeline stage's activity in one frame, in any one unit (strobe's: busy unit-cycles).
struct StageActivity {
  double geometry = 0, raster = 0, tiling = 0;
};

/// One frame's functional counts, as the frame methods read them: known for every frame from a
/// functional pass, without timing.
struct FrameCounts {
  uint64_t frame = 0;                    ///< the trace's frame number
  std::map<std::string, double> vertex;  ///< vertex-shader work by program: texture-weighted wave instructions
  std::map<std::string, double> pixel;   ///< pixel-shader work by program, the same unit
  double primitives = 0;                 ///< primitives reaching the tiler
};

/// A frame simulated in detail.
struct TimedFrame {
  FrameMeasure measure{};  ///< its statistics
  StageActivity activity;  ///< its stages' busy unit-cycles
};

/// Frames a method had simulated in detail, and what that cost.
struct TimedFrames {
  std::map<uint64_t, TimedFrame> by_frame;
  double seconds = 0, cpu_seconds = 0;  ///< wall clock and the process's CPU time
};

/// Simulates frames in detail for a method. Each call starts a fresh GPU and times the frames
/// asked (ascending trace frame numbers) in order, each after the run's warm frames before it,
/// so that the same list always gives the same cycles.
class FrameTimer {
 public:
  virtual ~FrameTimer() = default;
  /// Times `frames`; InputError for a frame outside the comparison.
  virtual TimedFrames time(const std::vector<uint64_t>& frames) = 0;
};

/// A confidence interval on one statistic's total.
struct FrameInterval {
  double total = 0, standard_error = 0, half_width = 0, relative_half_width = 0;
  double df = 0;  ///< the Student t degrees of freedom (infinite: none needed)
};

/// A method's estimate of the frames' totals.
struct FrameEstimate {
  FrameMeasure estimate{};
  /// Each simulated frame's weight, where the estimate is a weighted sum of the frames' values
  /// (the orchestration then also applies the weights to the reference's own values of those
  /// frames, which separates selection error from warm-state error); empty otherwise.
  std::map<uint64_t, double> weights;
  std::vector<uint64_t> frames_simulated;  ///< every frame the method timed, ascending
  double detailed_seconds = 0, detailed_cpu_seconds = 0;  ///< the timer's part of the method's cost
  /// Per statistic (by name), where the method gives intervals.
  std::map<std::string, FrameInterval> intervals;
  double confidence = 0;                    ///< the intervals' confidence
  std::string interval_note;               ///< why there are none, where there are none
  nlohmann::json details = nlohmann::json::object();  ///< method-specific facts for the report
  std::vector<std::string> notes;           ///< lines the terminal report prints after the method's
};

/// What a frame method is given to run.
struct FrameInputs {
  const std::vector<FrameCounts>* counts = nullptr;  ///< every frame's counts (needs_profile), else null
  std::vector<uint64_t> frames;                      ///< every frame of the comparison, ascending
  FrameTimer* timer = nullptr;
};

/// A frame-sampling method, built with its parameters resolved.
class FrameMethod {
 public:
  virtual ~FrameMethod() = default;
  /// Chooses frames, has them timed, and estimates the totals.
  virtual FrameEstimate run(const FrameInputs& in) = 0;
};

/// A registered frame method.
struct FrameMethodInfo {
  std::string name;
  std::string description;
  std::vector<MethodParam> params;
  std::unique_ptr<FrameMethod> (*make)(const MethodOptions&) = nullptr;
  /// Whether the method reads every frame's functional counts (given these parameters).
  bool (*needs_profile)(const MethodOptions&) = nullptr;
};

/// Every registered frame method, by name.
const std::map<std::string, FrameMethodInfo>& frame_methods();
/// Registers a frame method (from a static initialiser, see STROBE_FRAME_METHOD).
bool register_frame_method(FrameMethodInfo info);

/// A frame method built, with whether it reads the profile.
struct BuiltFrameMethod {
  std::unique_ptr<FrameMethod> method;
  bool needs_profile = false;
  MethodOptions options;  ///< its parameters, resolved
};

/// Builds frame method `name` with `sets` ("KEY=VALUE"; keys only another selected method
/// declares are skipped here). InputError names an unknown method or a bad value.
BuiltFrameMethod make_frame_method(const std::string& name, const std::vector<std::string>& sets);

/// Checks that every key of `sets` is declared by at least one of the frame methods `names`.
void check_frame_sampling_sets(const std::vector<std::string>& names, const std::vector<std::string>& sets);

}  // namespace strobe::sampling

/// Registers a frame-sampling method at static-initialisation time.
#define STROBE_FRAME_METHOD(var, ...) \
  static const bool var = ::strobe::sampling::register_frame_method(::strobe::sampling::FrameMethodInfo{__VA_ARGS__})
