// Running an OpenCL host program under the strobe ICD (see run_program.h).
#include "cli/run_program.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/gpu_config_options.h"
#include "cli/hip_program.h"
#include "common/error.h"
#include "sampling/method.h"

extern char** environ;

namespace strobe::cli {

namespace fs = std::filesystem;

namespace {

/// The child's environment: ours, with the STROBE_* settings and the ICD directory replaced.
/// With `library_dir` (a HIP program: strobe's libhsakmt.so.1) it goes first on LD_LIBRARY_PATH.
std::vector<std::string> child_environment(const ProgramRunOptions& o, const std::string& vendors,
                                           const std::string& json, const std::string& library_dir) {
  const std::vector<std::string> replaced = {"OCL_ICD_VENDORS", "STROBE_MODE", "STROBE_ARCH", "STROBE_SET",
                                             "STROBE_JSON", "STROBE_SAMPLING", "STROBE_MEMORY_CHECK"};
  std::vector<std::string> env;
  std::string library_path = library_dir;
  for (char** e = environ; *e; ++e) {
    std::string_view kv(*e);
    std::string_view name = kv.substr(0, kv.find('='));
    if (!library_dir.empty() && name == "LD_LIBRARY_PATH") {
      if (kv.size() > name.size() + 1) library_path += ":" + std::string(kv.substr(name.size() + 1));
      continue;
    }
    if (std::find(replaced.begin(), replaced.end(), name) == replaced.end()) env.emplace_back(kv);
  }
  if (!library_path.empty()) env.push_back("LD_LIBRARY_PATH=" + library_path);
  std::string sets;
  for (const auto& s : o.sets) sets += (sets.empty() ? "" : "\n") + s;
  if (!vendors.empty()) env.push_back("OCL_ICD_VENDORS=" + vendors);
  env.push_back("STROBE_MODE=" + o.mode);
  env.push_back("STROBE_ARCH=" + o.arch);
  env.push_back("STROBE_SAMPLING=" + o.sampling);
  env.push_back("STROBE_JSON=" + json);
  env.push_back("STROBE_MEMORY_CHECK=" + o.memory_check);
  if (!sets.empty()) env.push_back("STROBE_SET=" + sets);
  return env;
}

/// One line about the platform's report, on stderr.
void summarize(const ProgramRunOptions& o, const std::string& json_path, const std::string& shown_path) {
  std::ifstream in(json_path);
  if (!in) {
    fmt::print(stderr, "strobe: {} made no use of the strobe OpenCL platform (no report was written)\n", o.command[0]);
    return;
  }
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded()) {
    fmt::print(stderr, "strobe: the report {} is not valid JSON\n", json_path);
    return;
  }
  const size_t launches = j.value("kernels", nlohmann::json::array()).size();
  std::string line = fmt::format("strobe: {}: {} mode, {} kernel launch{}, {} wave instructions", j.value("benchmark", ""),
                                 o.mode, launches, launches == 1 ? "" : "es", j.value("wave_instructions", uint64_t{0}));
  if (j.contains("cycles"))
    line += fmt::format(", {} cycles ({:.6f} ms simulated)", j["cycles"].get<uint64_t>(), j["sim_seconds"].get<double>() * 1e3);
  if (!shown_path.empty()) line += "; report: " + shown_path;
  fmt::print(stderr, "{}\n", line);
}

}  // namespace

ScratchDir::ScratchDir() {
  std::string tmpl = (fs::temp_directory_path() / "strobe-run-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) throw Error(ExitCode::Failure, fmt::format("cannot create {}: {}", tmpl, std::strerror(errno)));
  path_ = tmpl;
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

void check_program_method(const std::string& method, const timing::GpuConfig& cfg, const std::string& command) {
  const auto m = sampling::make_method(method, cfg, {}, false);
  if (m->passes() > 1)
    throw NotImplementedError(fmt::format("--sampling {} for OpenCL programs: the method makes {} passes over the "
                                          "workload, and a program runs once (use strobe {} BENCH --sampling {})",
                                          method, m->passes(), command, method));
}

int spawn_program(const ProgramRunOptions& o, const std::string& vendors, const std::string& json,
                  bool stdout_to_stderr) {
  // A HIP program runs on strobe's KFD thunk under the real ROCr and HIP runtimes; device code
  // for another GPU is refused here, before the runtimes start.
  std::string library_dir;
  if (!o.command.empty()) {
    const HipProgram hip = inspect_hip_program(o.command[0]);
    if (hip.is_hip) {
      check_hip_targets(hip, o.command[0]);
      library_dir = hsakmt_dir();
    }
  }
  std::vector<std::string> env = child_environment(o, vendors, json, library_dir);
  std::vector<char*> envp, argv;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> command = o.command;
  for (auto& a : command) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  if (stdout_to_stderr) ::posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
  pid_t pid;
  int rc = ::posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  ::posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw InputError(fmt::format("cannot run '{}': {}", o.command[0], std::strerror(rc)));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    fmt::print(stderr, "strobe: {} was killed by signal {} ({})\n", o.command[0], WTERMSIG(status), ::strsignal(WTERMSIG(status)));
    return 128 + WTERMSIG(status);
  }
  return WEXITSTATUS(status);
}

std::string opencl_vendors_dir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  std::vector<fs::path> candidates;
  if (!ec) candidates.push_back(exe.parent_path() / "vendors");
#ifdef STROBE_OPENCL_VENDORS_DIR
  candidates.emplace_back(STROBE_OPENCL_VENDORS_DIR);
#endif
  for (const auto& dir : candidates) {
    std::ifstream icd(dir / "strobe.icd");
    std::string library;
    if (icd && std::getline(icd, library) && fs::exists(library, ec)) return dir.string();
  }
  throw Error(ExitCode::Failure,
              "the strobe OpenCL platform is not built: no vendors/strobe.icd naming an existing libstrobe_opencl.so "
              "next to this executable (configure with -DSTROBE_BUILD_OPENCL=ON)");
}

int run_opencl_program(ProgramRunOptions o) {
  if (o.command.empty()) throw InputError("nothing to run after --");
  if (o.sampling != "none") {
    // A sampling method estimates detailed timing: it implies the timing model.
    if (o.mode == "functional" && o.mode_given)
      throw InputError(fmt::format("--sampling {} estimates detailed timing; it needs --mode timing", o.sampling));
    o.mode = "timing";
    check_program_method(o.sampling, resolve_gpu_config(o.arch, o.sets), "run");
  }
  if (o.mode != "functional" && o.mode != "timing")
    throw InputError(fmt::format("--mode '{}': expected functional or timing", o.mode));
  // Checked here, so a bad --arch or --set is a usage error rather than a platform that fails
  // to appear inside the program.
  (void)resolve_gpu_config(o.arch, o.sets);
  if (!o.sets.empty() && o.mode != "timing") throw InputError("--set configures the timing model; it needs --mode timing");
  // A HIP program needs the KFD thunk, not the OpenCL platform (which may not be built).
  const std::string vendors = inspect_hip_program(o.command[0]).is_hip ? std::string() : opencl_vendors_dir();

  ScratchDir scratch;
  const bool keep = !o.json.empty() && o.json != "-";
  const std::string json = keep ? fs::absolute(o.json).string() : scratch.path() + "/report.json";
  std::error_code ec;
  if (keep) fs::remove(json, ec);  // a report left from an earlier run must not pass for this one

  const int exit_status = spawn_program(o, vendors, json);
  if (o.json == "-") {
    std::ifstream in(json);
    if (in) std::cout << in.rdbuf();
  }
  summarize(o, json, keep ? json : "");
  return exit_status;
}

}  // namespace strobe::cli
