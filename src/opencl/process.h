// Running the compiler and linker: a child process with its output captured.
#pragma once

#include <string>
#include <vector>

namespace strobe::opencl {

/// How a child process ended.
struct ProcessResult {
  bool started = false;  ///< false: it could not be run at all (`output` says why)
  int exit_code = -1;    ///< exit status; -1 when killed by a signal or unknown
  std::string output;    ///< stdout and stderr, interleaved
};

/// Runs argv[0] (a path) with `argv` in directory `cwd`, stdin from /dev/null, and waits for it.
ProcessResult run_process(const std::vector<std::string>& argv, const std::string& cwd);

}  // namespace strobe::opencl
