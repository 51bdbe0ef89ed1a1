// Runs the built `strobe` binary as a subprocess and captures its exit status and output.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace strobe::clitest {

/// Result of one `strobe` invocation.
struct CliResult {
  int rc = -1;
  std::string out, err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// A fresh temporary directory, removed when the object dies.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    char tmpl[] = "/tmp/strobe-test-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~TempDir() { std::error_code ec; std::filesystem::remove_all(path, ec); }
};

/// Runs `strobe <args>` (args already shell-quoted where needed).
inline CliResult run_strobe(const std::string& args) {
  TempDir t;
  std::string cmd = std::string(STROBE_BINARY) + " " + args + " >" + (t.path / "out").string() + " 2>" +
                    (t.path / "err").string() + " </dev/null";
  int status = std::system(cmd.c_str());
  CliResult r;
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(t.path / "out");
  r.err = slurp(t.path / "err");
  return r;
}

/// Runs a shell command and returns its stdout.
inline std::string shell(const std::string& cmd) {
  TempDir t;
  std::system((cmd + " >" + (t.path / "out").string() + " 2>/dev/null").c_str());
  return slurp(t.path / "out");
}

inline std::string kernel(const std::string& name) {
  return std::string(STROBE_BUILD_DIR) + "/kernels/tests/" + name + ".hsaco";
}

}  // namespace strobe::clitest
