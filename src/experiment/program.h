// OpenCL host programs on the simulated GPU: a program is a separate process that sees the
// strobe OpenCL platform as its only one (through OCL_ICD_VENDORS; nothing is installed) and
// receives the simulation settings in STROBE_* variables; the platform writes its report at exit
// (program_env.h is that side: how the platform, and the HIP thunk, read the settings).
#pragma once

#include <string>

#include "experiment/run_spec.h"

namespace strobe::experiment {

/// Runs spec.program once under the strobe platform with spec's settings (mode, arch, sets,
/// sampling, memory check), its report going to `json`; waits for it. Returns its exit status
/// (128 + N when signal N ended it). With `stdout_to_stderr` the program's own output goes to
/// stderr, leaving stdout to strobe's report. Throws InputError when it cannot be started, and
/// strobe::Error when the platform was not built.
int run_program(const RunSpec& spec, const std::string& json, bool stdout_to_stderr = false);

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
