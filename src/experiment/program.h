// OpenCL host programs on the simulated GPU: a program is a separate process that sees the
// strobe OpenCL platform as its only one (through OCL_ICD_VENDORS; nothing is installed) and
// receives the simulation settings in STROBE_* variables; the platform writes its report at exit
// (program_env.h is that side: how the platform, and the HIP thunk, read the settings).
#pragma once

#include <string>
#include <vector>

#include "experiment/run_spec.h"

namespace strobe::experiment {

/// Runs spec.program once under the strobe platform with spec's settings (mode, arch, sets,
/// sampling and the pass of it, pass state, profile, memory check), its report going to `json`;
/// waits for it. Returns its exit status
/// (128 + N when signal N ended it). With `stdout_to_stderr` the program's own output goes to
/// stderr, leaving stdout to strobe's report. Throws InputError when it cannot be started, and
/// strobe::Error when the platform was not built.
int run_program(const RunSpec& spec, const std::string& json, bool stdout_to_stderr = false);

/// What the runs of a program, one per pass of its sampling method, left.
struct ProgramPasses {
  int exit_status = 0;               ///< the first non-zero exit status of a run, else 0
  int failed_pass = -1;              ///< the pass whose run ended with it (-1: none failed)
  std::vector<std::string> reports;  ///< each pass's report file in pass order, the last pass's `json`
};

/// Runs spec.program once per pass of its sampling method (`passes`: the method's passes(), 1
/// without one), each a process of its own: a pass before the last writes its report to
/// `work`.passN.json and its state to `work`.state, which the next pass restores; the last pass
/// writes its report to `json`. Stops at the first run that fails. Throws strobe::Error when a
/// pass ends well but leaves no state, as run_program() for a program that cannot start.
ProgramPasses run_program_passes(RunSpec spec, int passes, const std::string& json, const std::string& work,
                                 bool stdout_to_stderr = false);

/// A scratch directory, removed with the object.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  /// Its path.
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// The directory holding strobe.icd for the build this executable belongs to: `vendors/` next
/// to the executable, else the build tree it was configured in. Throws strobe::Error if the
/// OpenCL platform was not built.
std::string opencl_vendors_dir();

}  // namespace strobe::experiment
