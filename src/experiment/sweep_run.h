// Running a sweep's tasks (see sweep.h): each task is this strobe binary run as a child process
// with the task's arguments, writing its result atomically; a local pool keeps N of them busy
// and shows progress, and a Slurm submission runs the same per-task command as a job array.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "experiment/sweep.h"

namespace strobe::experiment {

/// How a local sweep runs.
struct PoolOptions {
  int jobs = 1;                  ///< processes at once
  std::string strobe;            ///< the binary each task runs (this one)
  std::FILE* progress = nullptr;  ///< where done/total and the ETA go (null: nowhere)
};

/// What a local sweep did.
struct PoolResult {
  size_t done_before = 0;  ///< tasks whose result was already there
  size_t ran = 0;          ///< tasks run now that succeeded
  std::vector<std::string> failed;  ///< labels of tasks that failed now (their stderr kept beside the result)
};

/// Makes the missing profiles, then runs every task without a result, `o.jobs` at a time.
PoolResult run_local(const SweepSpec& spec, const std::vector<SweepTask>& tasks, const SweepLayout& layout,
                     const PoolOptions& o);

/// Runs task `index` (of `tasks`) once, in a child process, and its workload's profile first if
/// it is missing: what one element of a Slurm job array does. Returns the child's exit status.
int run_one(const SweepSpec& spec, const std::vector<SweepTask>& tasks, const SweepLayout& layout, size_t index,
            const std::string& strobe);

/// Makes workload `w`'s profile (or, in a capture sweep, its capture) if it is missing, in a child
/// process: what one element of a sweep's profile array does. Returns the child's exit status.
int make_profile(const SweepSpec& spec, const SweepLayout& layout, size_t w, const std::string& strobe);

/// The variable a local pool's children find the sweep's process id in.
inline constexpr const char* kSweepParentVariable = "STROBE_SWEEP_PARENT";
/// In a task a local pool started (kSweepParentVariable set): ends this process with the sweep,
/// however the sweep ends (killed included), so no task runs on and writes after it; a task
/// whose sweep is already gone exits at once. Nothing otherwise.
void bind_to_sweep_parent();

/// A Slurm submission of the tasks without a result.
struct SlurmPlan {
  std::string script;          ///< the tasks' sbatch file
  std::vector<size_t> tasks;   ///< task indices in its array
  /// The profiles' sbatch file ("" when every profile the tasks need is there), and the
  /// workload indices in its array; the tasks' array then waits for it (afterok).
  std::string profile_script;
  std::vector<size_t> profiles;
};

/// Writes `layout.dir`/sweep.sbatch, a job array over the tasks without a result whose element
/// runs `strobe sweep SPEC --out DIR --task $SLURM_ARRAY_TASK_ID`, and, when some of their
/// profiles are missing, profiles.sbatch, an array over those workloads (`--profile-of`);
/// `spec_path` is the spec as the nodes will read it. Nothing missing: no script, an empty plan.
SlurmPlan write_slurm_script(const SweepSpec& spec, const std::string& spec_path, const std::vector<SweepTask>& tasks,
                             const SweepLayout& layout, const std::string& strobe);

/// The job ids of a submission.
struct SlurmJobs {
  std::string profiles;  ///< "" when no profile was missing
  std::string tasks;
};

/// Submits `plan` with `sbatch` (the STROBE_SBATCH environment variable overrides the command):
/// the profiles first, then the tasks depending on them. strobe::Error naming sbatch's complaint
/// when it fails.
SlurmJobs submit_slurm(const SlurmPlan& plan);

}  // namespace strobe::experiment
