// `strobe run [options] -- PROGRAM [ARGS...]`: an OpenCL host program on the simulated GPU.
#pragma once

#include <string>
#include <vector>

#include "timing/config/gpu_config.h"

namespace strobe::cli {

/// What `strobe run -- PROGRAM` was asked to do.
struct ProgramRunOptions {
  std::vector<std::string> command;  ///< PROGRAM and its arguments
  std::string mode = "functional", arch = "r9nano", sampling = "none", json;
  std::vector<std::string> sets;
  bool mode_given = false;  ///< --mode was on the command line (not the default)
  std::string memory_check = "page";  ///< --memory-check: page or strict
};

/// Runs the program with the strobe OpenCL platform as the only one it can see (through
/// OCL_ICD_VENDORS; nothing is installed), passes the simulation options on in STROBE_*
/// variables, and prints a summary of the platform's report on stderr. Returns the program's
/// exit status (128 + N when signal N ended it). Throws InputError for bad options.
int run_opencl_program(ProgramRunOptions o);

/// Runs o.command once under the strobe platform (ICD directory `vendors`) with o's STROBE_*
/// settings, its report going to `json`; waits for it. Returns its exit status (128 + N when
/// signal N ended it). With `stdout_to_stderr` the program's own output goes to stderr, leaving
/// stdout to strobe's report. Throws InputError when it cannot be started.
int spawn_program(const ProgramRunOptions& o, const std::string& vendors, const std::string& json,
                  bool stdout_to_stderr = false);

/// Throws NotImplementedError when `method` needs more than one pass over the workload: an
/// OpenCL program runs once. `command` names the built-in-benchmark alternative in the message.
void check_program_method(const std::string& method, const timing::GpuConfig& cfg, const std::string& command);

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

}  // namespace strobe::cli
