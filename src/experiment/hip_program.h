// Recognising a HIP host program for `strobe run -- PROGRAM`: it then runs on strobe's KFD
// thunk (libhsakmt.so.1) under the real ROCr and HIP runtimes instead of the OpenCL platform.
#pragma once

#include <string>
#include <vector>

namespace strobe::experiment {

/// What the program's executable says about HIP.
struct HipProgram {
  bool is_hip = false;               ///< it links libamdhip64 or carries HIP device code
  std::vector<std::string> targets;  ///< processors of its bundled device code ("gfx803", ...)
};

/// Inspects `command` (a path, or a name looked up on PATH). Anything that is not a readable
/// ELF executable is "not HIP": starting it is left to the caller, which reports that.
HipProgram inspect_hip_program(const std::string& command);

/// Throws InputError naming the program and its targets when it carries HIP device code but
/// none for gfx803, the GPU strobe simulates.
void check_hip_targets(const HipProgram& p, const std::string& command);

/// The directory holding strobe's libhsakmt.so.1 for the build this executable belongs to.
/// Throws strobe::Error when the thunk was not built.
std::string hsakmt_dir();

}  // namespace strobe::experiment
