// Running an OpenCL host program under the strobe ICD (see program.h).
#include "experiment/program.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/core.h>

#include "common/error.h"
#include "experiment/hip_program.h"
#include "experiment/program_env.h"

extern char** environ;

namespace strobe::experiment {

namespace fs = std::filesystem;

namespace {

/// The child's environment: ours, with the STROBE_* settings and the ICD directory replaced.
/// With `library_dir` (a HIP program: strobe's libhsakmt.so.1) it goes first on LD_LIBRARY_PATH.
std::vector<std::string> child_environment(const RunSpec& o, const std::string& vendors,
                                           const std::string& json, const std::string& library_dir) {
  const std::vector<std::string> replaced = {"OCL_ICD_VENDORS",     "STROBE_MODE", "STROBE_ARCH",       "STROBE_SET",
                                             "STROBE_JSON",         "STROBE_SAMPLING", "STROBE_MEMORY_CHECK",
                                             "STROBE_PASS",         "STROBE_PASS_STATE", "STROBE_PROFILE",
                                             "STROBE_SAMPLING_WARMING", "STROBE_THREADS", "STROBE_CAPTURE",
                                             "STROBE_SAMPLING_SKIP_FUNCTIONAL"};
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
  // The reference of a comparison runs without a method, and warming means nothing there.
  if (o.sampling != "none") env.push_back("STROBE_SAMPLING_WARMING=" + o.warming);
  if (o.skip_functional) env.push_back("STROBE_SAMPLING_SKIP_FUNCTIONAL=1");
  env.push_back("STROBE_JSON=" + json);
  env.push_back("STROBE_MEMORY_CHECK=" + o.memory_check);
  env.push_back("STROBE_THREADS=" + std::to_string(o.threads));
  if (!sets.empty()) env.push_back("STROBE_SET=" + sets);
  if (o.pass >= 0) env.push_back("STROBE_PASS=" + std::to_string(o.pass));
  if (!o.pass_state.empty()) env.push_back("STROBE_PASS_STATE=" + o.pass_state);
  if (!o.profile.empty()) env.push_back("STROBE_PROFILE=" + o.profile);
  if (!o.capture_output.empty()) env.push_back("STROBE_CAPTURE=" + fs::absolute(o.capture_output).string());
  return env;
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

int run_program(const RunSpec& o, const std::string& json, bool stdout_to_stderr) {
  // A HIP program runs on strobe's KFD thunk under the real ROCr and HIP runtimes (it needs no
  // OpenCL platform); device code for another GPU is refused here, before the runtimes start.
  std::string library_dir, vendors;
  const HipProgram hip = o.program.empty() ? HipProgram{} : inspect_hip_program(o.program[0]);
  if (hip.is_hip) {
    check_hip_targets(hip, o.program[0]);
    library_dir = hsakmt_dir();
  } else {
    vendors = opencl_vendors_dir();
  }
  std::vector<std::string> env = child_environment(o, vendors, json, library_dir);
  std::vector<char*> envp, argv;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> command = o.program;
  for (auto& a : command) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  if (stdout_to_stderr) ::posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
  pid_t pid;
  int rc = ::posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  ::posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw InputError(fmt::format("cannot run '{}': {}", o.program[0], std::strerror(rc)));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    fmt::print(stderr, "strobe: {} was killed by signal {} ({})\n", o.program[0], WTERMSIG(status), ::strsignal(WTERMSIG(status)));
    return 128 + WTERMSIG(status);
  }
  return WEXITSTATUS(status);
}

ProgramPasses run_program_passes(RunSpec spec, int passes, const std::string& json, const std::string& work,
                                 bool stdout_to_stderr) {
  ProgramPasses out;
  if (passes > 1) {
    spec.pass_state = work + ".state";
    std::error_code ec;
    fs::remove(spec.pass_state, ec);  // a state left by an earlier run must not pass for this one's
  }
  for (int p = 0; p < passes; ++p) {
    const bool last = p + 1 == passes;
    if (passes > 1) spec.pass = p;
    const std::string report = last ? json : fmt::format("{}.pass{}.json", work, p);
    out.reports.push_back(report);
    const int status = run_program(spec, report, stdout_to_stderr);
    if (status != 0) {
      out.exit_status = status;
      out.failed_pass = p;
      return out;
    }
    if (!last && !fs::exists(spec.pass_state)) {
      if (!fs::exists(report) && !fs::exists(launch_log_path(report)))
        throw Error(ExitCode::Failure, fmt::format("{}: made no use of the strobe OpenCL platform or HIP, so pass {} "
                                                   "of {} left no state for the next (no report was written)",
                                                   spec.program[0], p, spec.sampling));
      if (!fs::exists(report)) throw Error(ExitCode::Failure, missing_report_error(spec.program[0], report));
      throw Error(ExitCode::Failure, fmt::format("{}: pass {} of {} left no pass state in {} (see the errors above)",
                                                 spec.program[0], p, spec.sampling, spec.pass_state));
    }
  }
  return out;
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

}  // namespace strobe::experiment
