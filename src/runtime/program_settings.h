// The simulation settings a host program running on strobe receives in STROBE_* variables
// (`strobe run -- PROGRAM` sets them): read the same way by the OpenCL platform and the HIP
// KFD thunk.
#pragma once

#include <string>
#include <vector>

#include "emu/memory.h"

namespace strobe::runtime {

/// What the environment asks of the simulated GPU inside a host program.
struct ProgramSettings {
  std::string mode = "functional";  ///< STROBE_MODE: functional or timing
  std::string arch = "r9nano";      ///< STROBE_ARCH: preset name or TOML path
  std::vector<std::string> sets;    ///< STROBE_SET: KEY=VALUE overrides, newline- or ';'-separated
  std::string sampling = "none";    ///< STROBE_SAMPLING
  std::string json;                 ///< STROBE_JSON: where to write the report at exit (empty: none)
  emu::MemoryCheck memory_check = emu::MemoryCheck::Page;  ///< STROBE_MEMORY_CHECK: page or strict
};

/// Reads the settings from the environment; throws strobe::InputError for a bad value.
ProgramSettings program_settings_from_env();

/// The host program's command line (from /proc/self/cmdline), for reports.
std::vector<std::string> program_command_line();

}  // namespace strobe::runtime
