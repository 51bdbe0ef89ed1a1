// Running sweep tasks as child processes, locally or as a Slurm job array (see sweep_run.h).
#include "experiment/sweep_run.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <map>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/atomic_file.h"
#include "common/error.h"

extern char** environ;

namespace strobe::experiment {

namespace {

/// One command of a sweep: a profile to make or a task to run.
struct Job {
  std::vector<std::string> args;  ///< strobe's arguments
  std::string err;                ///< where its stderr goes (removed when it succeeds)
  std::string label;
  size_t task = SIZE_MAX;         ///< the task it runs, or SIZE_MAX for a profile
  size_t workload = 0;
};

/// Starts `strobe args`, stdout discarded and stderr into `err`; the child's pid.
pid_t spawn(const std::string& strobe, const Job& j) {
  std::vector<std::string> argv = {strobe};
  argv.insert(argv.end(), j.args.begin(), j.args.end());
  std::vector<char*> cargv;
  for (std::string& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, j.err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  // The child ends with this process, however it ends (bind_to_sweep_parent).
  std::vector<std::string> env = {std::string(kSweepParentVariable) + "=" + std::to_string(::getpid())};
  for (char** e = environ; *e; ++e)
    if (std::string_view(*e).rfind(std::string(kSweepParentVariable) + "=", 0) != 0) env.emplace_back(*e);
  std::vector<char*> cenv;
  for (std::string& e : env) cenv.push_back(e.data());
  cenv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, strobe.c_str(), &fa, nullptr, cargv.data(), cenv.data());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw Error(ExitCode::Failure, fmt::format("sweep: cannot start {}: {}", strobe, std::strerror(rc)));
  return pid;
}

/// Waits for any child; its pid and whether it exited 0.
std::pair<pid_t, bool> wait_any() {
  int status = 0;
  pid_t pid;
  do pid = ::waitpid(-1, &status, 0);
  while (pid < 0 && errno == EINTR);
  if (pid < 0) throw Error(ExitCode::Failure, fmt::format("sweep: waitpid: {}", std::strerror(errno)));
  return {pid, WIFEXITED(status) && WEXITSTATUS(status) == 0};
}

/// The last non-empty line of file `path` (a failed child's error).
std::string last_line(const std::string& path) {
  std::string text;
  try {
    text = read_file(path);
  } catch (const Error&) {
    return "(no error output)";
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  const size_t nl = text.rfind('\n');
  return nl == std::string::npos ? text : text.substr(nl + 1);
}

std::string format_seconds(double s) {
  const long t = long(s + 0.5);
  return t >= 3600 ? fmt::format("{}h{:02}m", t / 3600, t / 60 % 60) : fmt::format("{}m{:02}s", t / 60, t % 60);
}

/// The job that makes workload `w`'s input: its capture, or its profile.
Job prepare_job(const SweepSpec& spec, const SweepLayout& layout, size_t w) {
  const workloads::SetRun& r = spec.workloads[w];
  Job j;
  j.args = {spec.capture ? "capture" : "profile", r.benchmark};
  // A graphics workload's one "parameter" is its frames.
  for (const std::string& p : r.params) j.args.insert(j.args.end(), {spec.graphics ? "--frames" : "--param", p});
  j.args.insert(j.args.end(), {"-o", layout.prepared(spec, w)});
  if (profile_with_traces(spec)) j.args.push_back("--gpumech");  // a capture holds them as a profile does
  j.err = layout.prepared(spec, w) + ".err";
  j.label = fmt::format("{} of {}{}{}", spec.capture ? "capture" : "profile", r.benchmark, r.params.empty() ? "" : " ",
                        fmt::join(r.params, " "));
  j.workload = w;
  return j;
}

/// The job of task `i`.
Job task_job(const SweepSpec& spec, const std::vector<SweepTask>& tasks, const SweepLayout& layout, size_t i) {
  const SweepTask& t = tasks[i];
  Job j;
  j.args = t.args;
  for (std::string& a : j.args)
    if (a == kCaptureArg) a = layout.capture(spec, t.workload);
  if (spec.profile) j.args.insert(j.args.end(), {"--profile", layout.profile(spec, t.workload)});
  j.args.insert(j.args.end(), {"--json", layout.result(t)});
  j.err = layout.error(t);
  j.label = t.label;
  j.task = i;
  j.workload = t.workload;
  return j;
}

/// Runs `j` and waits for it (no other child is running): 0, or its failure named on stderr.
int run_alone(const std::string& strobe, const Job& j) {
  spawn(strobe, j);
  if (!wait_any().second) {
    fmt::print(stderr, "strobe: error: sweep: {} failed: {}\n", j.label, last_line(j.err));
    return static_cast<int>(ExitCode::Failure);
  }
  std::filesystem::remove(j.err);
  return 0;
}

void make_dirs(const SweepLayout& layout) {
  std::error_code ec;
  for (const char* sub : {"/tasks", "/profiles", "/captures", "/slurm"}) {
    std::filesystem::create_directories(layout.dir + sub, ec);
    if (ec) throw InputError(fmt::format("sweep: cannot create {}{}: {}", layout.dir, sub, ec.message()));
  }
}

}  // namespace

PoolResult run_local(const SweepSpec& spec, const std::vector<SweepTask>& tasks, const SweepLayout& layout,
                     const PoolOptions& o) {
  make_dirs(layout);
  PoolResult res;
  std::deque<Job> profiles, work;
  std::vector<bool> profile_pending(spec.workloads.size(), false), profile_failed(spec.workloads.size(), false);
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (std::filesystem::exists(layout.result(tasks[i]))) {
      ++res.done_before;
      continue;
    }
    const size_t w = tasks[i].workload;
    if (prepares(spec) && !profile_pending[w] && !std::filesystem::exists(layout.prepared(spec, w))) {
      profile_pending[w] = true;
      profiles.push_back(prepare_job(spec, layout, w));
    }
    work.push_back(task_job(spec, tasks, layout, i));
  }
  const size_t total = work.size();
  if (o.progress)
    fmt::print(o.progress, "sweep: {} tasks, {} done before, {} to run on {} process{}\n", tasks.size(),
               res.done_before, total, o.jobs, o.jobs == 1 ? "" : "es");
  const auto t0 = std::chrono::steady_clock::now();
  std::map<pid_t, Job> running;
  size_t finished = 0;
  // A task waits for its workload's profile or capture: those start first, and a task of a
  // workload whose input is still being made is held back.
  auto ready = [&](const Job& j) { return j.task == SIZE_MAX || !profile_pending[j.workload]; };
  while (!profiles.empty() || !work.empty() || !running.empty()) {
    while (int(running.size()) < o.jobs) {
      std::deque<Job>& q = !profiles.empty() ? profiles : work;
      if (q.empty() || !ready(q.front())) break;
      Job j = std::move(q.front());
      q.pop_front();
      if (j.task != SIZE_MAX && profile_failed[j.workload]) {
        res.failed.push_back(j.label + (spec.capture ? ": its capture failed" : ": its profile failed"));
        write_file_atomic(j.err, spec.capture ? "strobe: error: the workload's capture failed\n"
                                              : "strobe: error: the workload's profile failed\n");
        ++finished;
        continue;
      }
      const pid_t pid = spawn(o.strobe, j);
      running.emplace(pid, std::move(j));
    }
    if (running.empty()) continue;
    const auto [pid, ok] = wait_any();
    auto it = running.find(pid);
    if (it == running.end()) continue;
    Job j = std::move(it->second);
    running.erase(it);
    if (j.task == SIZE_MAX) {
      profile_pending[j.workload] = false;
      profile_failed[j.workload] = !ok;
      if (!ok && o.progress) fmt::print(o.progress, "sweep: {} failed: {}\n", j.label, last_line(j.err));
      if (ok) std::filesystem::remove(j.err);
      continue;
    }
    ++finished;
    if (ok) {
      ++res.ran;
      std::filesystem::remove(j.err);
    } else {
      res.failed.push_back(j.label + ": " + last_line(j.err));
    }
    if (o.progress) {
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const double eta = elapsed / double(finished) * double(total - finished);
      fmt::print(o.progress, "[{}/{}] {} {} (elapsed {}, ETA {})\n", finished, total, ok ? "done" : "FAILED", j.label,
                 format_seconds(elapsed), format_seconds(eta));
      std::fflush(o.progress);
    }
  }
  return res;
}

int make_profile(const SweepSpec& spec, const SweepLayout& layout, size_t w, const std::string& strobe) {
  if (w >= spec.workloads.size())
    throw InputError(fmt::format("sweep --profile-of {}: the sweep has {} workloads", w, spec.workloads.size()));
  if (!prepares(spec))
    throw InputError("sweep --profile-of: the sweep makes no capture, and none of its methods reads a profile");
  make_dirs(layout);
  if (std::filesystem::exists(layout.prepared(spec, w))) return 0;
  return run_alone(strobe, prepare_job(spec, layout, w));
}

int run_one(const SweepSpec& spec, const std::vector<SweepTask>& tasks, const SweepLayout& layout, size_t index,
            const std::string& strobe) {
  if (index >= tasks.size())
    throw InputError(fmt::format("sweep --task {}: the sweep has {} tasks (0 to {})", index, tasks.size(),
                                 tasks.size() - 1));
  // A submitted array's profiles are made by the job it depends on; a task run by hand makes
  // its own if it is missing.
  if (prepares(spec))
    if (const int rc = make_profile(spec, layout, tasks[index].workload, strobe); rc != 0) return rc;
  return run_alone(strobe, task_job(spec, tasks, layout, index));
}

SlurmPlan write_slurm_script(const SweepSpec& spec, const std::string& spec_path, const std::vector<SweepTask>& tasks,
                             const SweepLayout& layout, const std::string& strobe) {
  make_dirs(layout);
  SlurmPlan plan;
  std::vector<bool> need(spec.workloads.size(), false);
  for (size_t i = 0; i < tasks.size(); ++i)
    if (!std::filesystem::exists(layout.result(tasks[i]))) {
      plan.tasks.push_back(i);
      need[tasks[i].workload] = prepares(spec) && !std::filesystem::exists(layout.prepared(spec, tasks[i].workload));
    }
  if (plan.tasks.empty()) return plan;
  for (size_t w = 0; w < need.size(); ++w)
    if (need[w]) plan.profiles.push_back(w);
  const std::string dir = std::filesystem::absolute(layout.dir).string();
  auto quote = [](const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  };
  auto array_script = [&](const std::string& what, const std::vector<size_t>& indices, const char* option) {
    std::string script = "#!/bin/bash\n";
    script += "# strobe sweep " + spec_path + ": " + what + "\n";
    script += "#SBATCH --job-name=strobe-sweep\n";
    script += fmt::format("#SBATCH --array={}\n", fmt::join(indices, ","));
    script += "#SBATCH --cpus-per-task=1\n";
    script += fmt::format("#SBATCH --output={}/slurm/%A_%a.out\n", dir);
    script += fmt::format("exec {} sweep {} --out {} {} \"$SLURM_ARRAY_TASK_ID\"\n",
                          quote(std::filesystem::absolute(strobe).string()),
                          quote(std::filesystem::absolute(spec_path).string()), quote(dir), option);
    return script;
  };
  plan.script = dir + "/sweep.sbatch";
  write_file_atomic(plan.script, array_script("one array element per task without a result.", plan.tasks, "--task"));
  if (!plan.profiles.empty()) {
    plan.profile_script = dir + "/profiles.sbatch";
    write_file_atomic(plan.profile_script,
                      array_script(spec.capture ? "one array element per workload capture the tasks need."
                                                : "one array element per workload profile the tasks need.",
                                   plan.profiles, "--profile-of"));
  }
  return plan;
}

namespace {

/// `sbatch --parsable [options] script`; the job id it printed.
std::string sbatch(const std::string& options, const std::string& script) {
  const char* env = std::getenv("STROBE_SBATCH");
  const std::string command = env && *env ? env : "sbatch";
  const std::string cmd = fmt::format("{} --parsable {} '{}' 2>&1", command, options, script);
  std::FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) throw Error(ExitCode::Failure, fmt::format("sweep --slurm: cannot run {}: {}", command, std::strerror(errno)));
  std::string out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  const int status = ::pclose(p);
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  if (status != 0)
    throw Error(ExitCode::Failure,
                fmt::format("sweep --slurm: {} {} failed: {}", command, script, out.empty() ? "no output" : out));
  // --parsable prints "JOBID" or "JOBID;CLUSTER".
  return out.substr(0, out.find(';'));
}

}  // namespace

SlurmJobs submit_slurm(const SlurmPlan& plan) {
  SlurmJobs jobs;
  if (!plan.profile_script.empty()) jobs.profiles = sbatch("", plan.profile_script);
  jobs.tasks = sbatch(jobs.profiles.empty() ? "" : "--dependency=afterok:" + jobs.profiles, plan.script);
  return jobs;
}

void bind_to_sweep_parent() {
  const char* parent = std::getenv(kSweepParentVariable);
  if (!parent) return;
  // Linux sends the signal when the parent thread that started this process dies; SIGKILL of
  // the sweep included. A parent already gone before the request took effect is checked after.
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (std::to_string(::getppid()) != parent) std::_Exit(static_cast<int>(ExitCode::Failure));
  ::unsetenv(kSweepParentVariable);  // not for processes this task starts (a host program)
}

}  // namespace strobe::experiment
