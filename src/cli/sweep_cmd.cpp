// `strobe sweep SPEC.toml`: a design-space sweep (experiment/sweep.h) run on a local pool of
// processes, submitted to Slurm as a job array (--slurm), one task of it run (--task, what an
// array element does), or its results merged (--collect) into DIR/results.csv and .json.
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "cli/commands.h"
#include "cli/spec_options.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "experiment/sweep.h"
#include "experiment/sweep_run.h"

namespace strobe::cli {

namespace {

/// `strobe sweep`'s options as parsed (-1: an index option not given).
struct SweepOptions {
  std::string spec, out;
  int jobs = 0;  // 0: every core
  bool slurm = false, collect = false, dry_run = false;
  long task = -1, profile_of = -1;
};

/// This executable, which every task runs.
std::string self() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error(ExitCode::Failure, fmt::format("sweep: cannot find the strobe executable: {}", ec.message()));
  return p.string();
}

/// Merges the results into DIR/results.{csv,json}; returns the exit status (1 when a task
/// failed or has no result).
int write_table(const experiment::SweepSpec& spec, const std::vector<experiment::SweepTask>& tasks,
                const experiment::SweepLayout& layout) {
  const experiment::SweepTable t = experiment::collect(spec, tasks, layout);
  write_file_atomic(layout.dir + "/results.csv", experiment::sweep_csv(t, spec));
  const nlohmann::json j = {{"spec", spec.source}, {"tasks", tasks.size()}, {"rows", t.rows},
                            {"missing", t.missing}, {"failed", t.failed}};
  write_file_atomic(layout.dir + "/results.json", j.dump(1) + "\n");
  fmt::print("sweep: {} of {} tasks in {}/results.csv and results.json\n", t.rows.size(), tasks.size(), layout.dir);
  for (const std::string& f : t.failed) fmt::print(stderr, "strobe: sweep task failed: {}\n", f);
  for (const std::string& m : t.missing) fmt::print(stderr, "strobe: sweep task not run: {}\n", m);
  return t.failed.empty() && t.missing.empty() ? 0 : static_cast<int>(ExitCode::Failure);
}

}  // namespace

void add_sweep_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<SweepOptions>();
  auto* cmd = app.add_subcommand("sweep", "Run a design-space sweep: workloads x a grid of --set keys and --arch "
                                          "presets, each compared with full detail by the given methods");
  cmd->add_option("spec", o->spec, "Sweep spec (TOML; docs/sweep.md)")->required();
  cmd->add_option("--out", o->out, "Directory of the sweep's files (default: SPEC without .toml, plus .sweep)");
  cmd->add_option("-j,--jobs", o->jobs, "Processes at once (default: every core)")->check(CLI::Range(1, 1024));
  auto* slurm = cmd->add_flag("--slurm", o->slurm, "Submit the tasks without a result as a Slurm job array");
  auto* collect = cmd->add_flag("--collect", o->collect, "Merge the results into OUT/results.csv and .json");
  // A sweep has at most kMaxSweepTasks tasks, so a longer index is refused as such.
  const auto index_range = CLI::Range(0L, long(experiment::kMaxSweepTasks));
  auto* task = cmd->add_option("--task", o->task, "Run task INDEX only (what a Slurm array element runs)")
                   ->check(whole_number())
                   ->check(index_range);
  auto* profile_of = cmd->add_option("--profile-of", o->profile_of,
                                     "Make workload INDEX's profile if missing (what a profile array element runs)")
                         ->check(whole_number())
                         ->check(index_range);
  auto* dry = cmd->add_flag("--dry-run", o->dry_run, "List the tasks and whether each has a result; run nothing");
  slurm->excludes(collect)->excludes(task)->excludes(dry);
  collect->excludes(task)->excludes(dry);
  task->excludes(dry);
  profile_of->excludes(slurm)->excludes(collect)->excludes(task)->excludes(dry);
  cmd->callback([o, &action] {
    action = [o] {
      const experiment::SweepSpec spec = experiment::load_sweep(o->spec);
      const std::vector<experiment::SweepTask> tasks = experiment::expand(spec);
      experiment::SweepLayout layout;
      layout.dir = !o->out.empty() ? o->out
                                   : (std::filesystem::path(o->spec).replace_extension("").string() + ".sweep");
      if (o->dry_run) {
        std::map<std::string, size_t> count;
        // The table on stdout, a line a task (scripts read it); what it means on stderr.
        fmt::print(stderr, "task id               state  workload and grid point\n");
        for (size_t i = 0; i < tasks.size(); ++i) {
          const char* st = layout.status(tasks[i]);
          ++count[st];
          fmt::print("{:4} {} {:6} {}\n", i, tasks[i].id, st, tasks[i].label);
        }
        fmt::print(stderr, "sweep: {} tasks in {}: {} with a result, {} failed, {} to run; nothing was run\n", tasks.size(), layout.dir,
                   count["done"], count["failed"], count["todo"]);
        return 0;
      }
      if (o->task >= 0) return experiment::run_one(spec, tasks, layout, size_t(o->task), self());
      if (o->profile_of >= 0) return experiment::make_profile(spec, layout, size_t(o->profile_of), self());
      if (o->collect) return write_table(spec, tasks, layout);
      if (o->slurm) {
        const experiment::SlurmPlan plan = experiment::write_slurm_script(spec, o->spec, tasks, layout, self());
        if (plan.tasks.empty()) {
          fmt::print("sweep: every task has a result; nothing to submit (strobe sweep {} --collect)\n", o->spec);
          return 0;
        }
        const experiment::SlurmJobs jobs = experiment::submit_slurm(plan);
        if (!jobs.profiles.empty())
          fmt::print("sweep: submitted {} profile{} as Slurm job {} ({})\n", plan.profiles.size(),
                     plan.profiles.size() == 1 ? "" : "s", jobs.profiles, plan.profile_script);
        fmt::print("sweep: submitted {} of {} tasks as Slurm job {} ({}{}); when it ends: strobe sweep {}{} --collect\n",
                   plan.tasks.size(), tasks.size(), jobs.tasks, plan.script,
                   jobs.profiles.empty() ? "" : ", after the profiles", o->spec,
                   o->out.empty() ? std::string() : " --out " + o->out);
        return 0;
      }
      experiment::PoolOptions po;
      po.jobs = o->jobs > 0 ? o->jobs : int(std::max(1u, std::thread::hardware_concurrency()));
      po.strobe = self();
      po.progress = stderr;
      const experiment::PoolResult r = experiment::run_local(spec, tasks, layout, po);
      const int rc = write_table(spec, tasks, layout);
      return r.failed.empty() ? rc : static_cast<int>(ExitCode::Failure);
    };
  });
}

}  // namespace strobe::cli
