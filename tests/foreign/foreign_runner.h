// Helpers of the foreign-code tests: where the foreign code objects are, running one kernel
// through `strobe launch`, and telling the pending function-call fault from real failures.
#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli/cli_runner.h"

namespace strobe::foreigntest {

using clitest::CliResult;
using clitest::TempDir;

/// build/kernels-hip/<flavour>/<stem>.hsaco
inline std::filesystem::path hip_object(const std::string& flavour, const std::string& stem) {
  return std::filesystem::path(STROBE_BUILD_DIR) / "kernels-hip" / flavour / (stem + ".hsaco");
}

template <typename T>
void write_vec(const std::filesystem::path& p, const std::vector<T>& v) {
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * sizeof(T)));
}

template <typename T>
std::vector<T> read_vec(const std::filesystem::path& p) {
  const std::string s = clitest::slurp(p);
  std::vector<T> v(s.size() / sizeof(T));
  std::memcpy(v.data(), s.data(), v.size() * sizeof(T));
  return v;
}

/// One `strobe launch` with buffers written to and dumped from a temporary directory.
class Launch {
 public:
  Launch(std::filesystem::path object, std::string kernel) : object_(std::move(object)), kernel_(std::move(kernel)) {}

  /// A global buffer initialised from `v`; its index is the argument position.
  template <typename T>
  Launch& buffer(const std::vector<T>& v) {
    const auto p = dir_.path / ("in" + std::to_string(args_.size()) + ".bin");
    write_vec(p, v);
    args_.push_back("buf:" + p.string());
    return *this;
  }
  /// A zero-filled global buffer of `bytes`.
  Launch& zeros(uint64_t bytes) { return arg("zeros:" + std::to_string(bytes)); }
  /// Any --arg spec (scalars: "i32:5", "f32:0.5", "u64:...").
  Launch& arg(const std::string& spec) { args_.push_back(spec); return *this; }
  /// Extra options (--dynamic-lds N, --mode timing).
  Launch& option(const std::string& o) { options_ += " " + o; return *this; }

  /// Runs it; the result's buffers are then read with output<T>(i).
  CliResult run(uint64_t grid, uint64_t local) {
    std::string cmd = "launch '" + object_.string() + "' --kernel '" + kernel_ + "' --grid " + std::to_string(grid) +
                      " --local " + std::to_string(local) + options_;
    for (const auto& a : args_) cmd += " --arg '" + a + "'";
    cmd += " --dump '" + (dir_.path / "dump").string() + "'";
    return clitest::run_strobe(cmd);
  }

  /// Buffer argument `i` after the run.
  template <typename T>
  std::vector<T> output(size_t i) const {
    return read_vec<T>(dir_.path / "dump" / ("arg" + std::to_string(i) + ".bin"));
  }

 private:
  std::filesystem::path object_;
  std::string kernel_;
  std::vector<std::string> args_;
  std::string options_;
  TempDir dir_;
};

}  // namespace strobe::foreigntest
