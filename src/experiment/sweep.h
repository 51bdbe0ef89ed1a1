// Design-space sweeps (`strobe sweep SPEC.toml`): a spec names workloads (benchmarks, or
// graphics captures with frame-sampling methods), a grid of GPU
// configuration overrides and presets, and the sampling methods to compare; it expands to one
// task per (workload, grid point), each a `strobe run` or `strobe compare` command line whose
// result is one JSON file. Tasks are named by a hash of their command line, so a result on disk
// is found again whatever order the spec lists things in: a sweep resumes, and re-running it
// runs only what is missing. This file holds the spec, the expansion and the merge of results;
// sweep_run.h runs the tasks (a local pool of processes, or a Slurm job array).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiment/run_spec.h"
#include "workloads/bench_set.h"

namespace strobe::experiment {

/// One grid axis: a `--set` key (or "arch", the preset) and the values it takes.
struct SweepAxis {
  std::string key;
  std::vector<std::string> values;
};

/// The most tasks (workloads times grid points) one sweep may have: a larger study is split
/// into several specs (a spec this size already names 100,000 result files).
inline constexpr uint64_t kMaxSweepTasks = 100000;

/// A sweep as its spec file states it.
struct SweepSpec {
  std::string source;                        ///< the spec file, named in errors
  std::vector<workloads::SetRun> workloads;  ///< benchmarks with their parameters
  std::vector<SweepAxis> grid;               ///< in the spec's order; "arch" among them or not
  std::vector<std::string> methods;          ///< sampling methods compared with full detail (none: a timing run)
  std::vector<std::string> sampling_sets;    ///< KEY=VALUE for every method
  std::string warming = "none";              ///< --sampling-warming
  int repeat = 1;                            ///< --repeat of each comparison
  /// Whether one functional profile per workload is made first and given to every task of it
  /// (methods that read one skip their profiling pass; GPUMech and SimProf get its traces).
  bool profile = false;
  /// Whether each workload is captured once (`strobe capture`) and every task replays the
  /// capture (`strobe run|compare CAPTURE`): the capture holds the profiles its methods read,
  /// and a method's predicted launches then neither run nor load memory (docs/capture.md).
  bool capture = false;
  /// With a capture: how each simulated launch's caches are rebuilt (`--warm-state`: history,
  /// the capture's bound, or fitted, four times the configuration's data-cache lines).
  std::string warm_state = kDefaultWarmState;
  /// Whether the workloads are graphics captures ("gfx:NAME [--frames A-B]", the frames kept as
  /// the run's one parameter): its methods are then frame-sampling methods and each task is
  /// `strobe run|compare gfx:NAME` (all of a sweep's workloads are captures or none are).
  bool graphics = false;
};

/// Whether a sweep makes one input per workload before its tasks: a profile or a capture.
inline bool prepares(const SweepSpec& s) { return s.profile || s.capture; }

/// The argument a capture sweep's task has in place of its workload, replaced by the capture's
/// path when the task runs (the path is under the sweep's directory; the task's id is not).
inline constexpr const char* kCaptureArg = "{capture}";

/// Reads and checks a spec: unknown keys, wrong types, an empty grid axis, an unknown method or
/// benchmark parameter are InputErrors naming the file and the key.
SweepSpec load_sweep(const std::string& path);
/// The same from text (`source` names it in errors).
SweepSpec parse_sweep(const std::string& text, const std::string& source);

/// One task of a sweep.
struct SweepTask {
  size_t workload = 0;                                     ///< index into SweepSpec::workloads
  std::vector<std::pair<std::string, std::string>> point;  ///< the grid point: (axis key, value) in grid order
  std::vector<std::string> args;  ///< strobe's arguments, without --json and --profile
  std::string id;                 ///< 16 hex digits of the hash of `args`: the result's file name
  std::string label;              ///< "BENCH K=V ... axis=value ...", for people
};

/// Every task, workloads outermost, then the grid axes in the spec's order (the last fastest).
/// Each task's configuration is validated (preset, --set keys and values) so that a bad grid
/// fails before anything runs.
std::vector<SweepTask> expand(const SweepSpec& spec);

/// Whether the sweep's profiles or captures save GPUMech's wave traces (a method that models
/// launches from them: gpumech, SimProf's GPUMech proxy unless proxy=pilot, STEM with
/// signature=gpumech).
bool profile_with_traces(const SweepSpec& s);

/// Where a sweep keeps its files under `dir`.
struct SweepLayout {
  std::string dir;  ///< the sweep's directory
  /// Task `t`'s result (written atomically by the task).
  std::string result(const SweepTask& t) const { return dir + "/tasks/" + t.id + ".json"; }
  /// Task `t`'s stderr, kept when it failed.
  std::string error(const SweepTask& t) const { return dir + "/tasks/" + t.id + ".err"; }
  /// The functional profile of workload `workload` of `s` (named by its benchmark, parameters
  /// and whether it holds GPUMech's traces).
  std::string profile(const SweepSpec& s, size_t workload) const;
  /// The capture of workload `workload` of `s` (named by its benchmark and parameters).
  std::string capture(const SweepSpec& s, size_t workload) const;
  /// What workload `workload`'s tasks need made first: its capture or its profile.
  std::string prepared(const SweepSpec& s, size_t workload) const {
    return s.capture ? capture(s, workload) : profile(s, workload);
  }
  /// Task `t`'s state: "done" (a result), "failed" (its stderr kept, no result) or "todo".
  const char* status(const SweepTask& t) const;
};

/// What the results of a sweep are, merged.
struct SweepTable {
  nlohmann::json rows = nlohmann::json::array();  ///< one object per finished task, in task order
  std::vector<std::string> missing;               ///< labels of tasks with no result
  std::vector<std::string> failed;                ///< labels of tasks whose last run failed, with its error
};

/// Reads every task's result under `layout` into one table.
SweepTable collect(const SweepSpec& spec, const std::vector<SweepTask>& tasks, const SweepLayout& layout);
/// The table as CSV: one line per row, the columns of every row in a fixed order.
std::string sweep_csv(const SweepTable& t, const SweepSpec& spec);

}  // namespace strobe::experiment
